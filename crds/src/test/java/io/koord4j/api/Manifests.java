package io.koord4j.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.check.GangFeasibilityParameters;
import io.koord4j.api.device.Device;
import io.koord4j.api.gang.PodGroup;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.api.quota.ElasticQuotaProfile;
import io.koord4j.api.slo.NodeMetric;
import io.koord4j.api.slo.NodeSLO;
import io.koord4j.testing.LocalCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** The YAML files shipped with the repository, read as JSON trees, and their model classes. */
final class Manifests {
  private Manifests() {}

  static final List<Class<? extends CustomResource<?, ?>>> MODEL_CLASSES =
      List.of(
          Queue.class,
          QueueUnit.class,
          ElasticQuota.class,
          ElasticQuotaProfile.class,
          PodGroup.class,
          Device.class,
          NodeMetric.class,
          NodeSLO.class,
          GangFeasibilityParameters.class);

  static final List<String> SAMPLE_DIRS = List.of("samples/quota", "samples/queues");

  /** The sample files, in the order {@code kubectl apply -f <dir>} applies them. */
  static List<Path> sampleFiles() {
    return SAMPLE_DIRS.stream()
        .map(dir -> LocalCluster.repoRoot().resolve(dir))
        .flatMap(Manifests::yamlFiles)
        .toList();
  }

  static Stream<Path> yamlFiles(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList().stream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The documents of a (multi-document) YAML file. */
  static List<JsonNode> documents(Path file) {
    try (MappingIterator<JsonNode> docs =
        Serialization.yamlMapper().readerFor(JsonNode.class).readValues(file.toFile())) {
      return docs.readAll().stream().filter(doc -> doc != null && !doc.isEmpty()).toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /** The koord4j model class of a document, if it is one of ours. */
  static Optional<Class<? extends CustomResource<?, ?>>> modelClass(JsonNode document) {
    String apiVersion = document.path("apiVersion").asText();
    String kind = document.path("kind").asText();
    return MODEL_CLASSES.stream()
        .filter(type -> apiVersionOf(type).equals(apiVersion) && kindOf(type).equals(kind))
        .findFirst();
  }

  static String apiVersionOf(Class<? extends CustomResource<?, ?>> type) {
    return HasMetadata.getApiVersion(type);
  }

  static String kindOf(Class<? extends CustomResource<?, ?>> type) {
    return HasMetadata.getKind(type);
  }
}
