package io.koord4j.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.api.quota.ElasticQuotaSpec;
import io.koord4j.testing.LocalCluster;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The generated CRDs on the real API server: samples stored intact, bad quotas rejected. */
class CrdsIT {
  static final String FIELD_MANAGER = "koord4j-crds-it";
  static final String TEST_NAMESPACE = "koord4j-crds-it";

  static KubernetesClient client;

  @BeforeAll
  static void installCrds() throws IOException {
    client = LocalCluster.client();
    for (CustomResourceDefinition crd : generatedCrds()) {
      client.resource(crd).fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply();
    }
    for (CustomResourceDefinition crd : generatedCrds()) {
      client
          .apiextensions()
          .v1()
          .customResourceDefinitions()
          .withName(crd.getMetadata().getName())
          .waitUntilCondition(LocalCluster::isEstablished, 60, TimeUnit.SECONDS);
    }
    Namespace namespace =
        new NamespaceBuilder().withNewMetadata().withName(TEST_NAMESPACE).endMetadata().build();
    client.resource(namespace).fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply();
  }

  /** Sample objects this test stored, removed afterwards so that later tests see no stray quotas. */
  private static final java.util.Deque<GenericKubernetesResource> STORED = new java.util.ArrayDeque<>();

  @AfterAll
  static void cleanUp() {
    if (client != null) {
      // Children before parents; the namespaces stay, other tests share them.
      STORED.forEach(object -> client.resource(object).delete());
      client.namespaces().withName(TEST_NAMESPACE).delete();
      client.close();
    }
  }

  static List<CustomResourceDefinition> generatedCrds() throws IOException {
    try (Stream<Path> files = Files.list(GeneratedCrdsTest.generatedDir())) {
      return files.filter(f -> f.toString().endsWith("-v1.yml")).map(CrdsIT::readCrd).toList();
    }
  }

  static CustomResourceDefinition readCrd(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return Serialization.unmarshal(in, CustomResourceDefinition.class);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + file, e);
    }
  }

  @Test
  void samplesAreStoredWithoutLosingAnyFieldLabelOrAnnotation() {
    for (Path file : Manifests.sampleFiles()) {
      for (JsonNode document : Manifests.documents(file)) {
        GenericKubernetesResource manifest =
            Serialization.jsonMapper().convertValue(document, GenericKubernetesResource.class);
        client.resource(manifest).fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply();
        if (!"Namespace".equals(manifest.getKind())) {
          STORED.push(manifest);
        }
        Manifests.modelClass(document)
            .ifPresent(type -> assertStoredIntact(file, document, type));
      }
    }
  }

  static void assertStoredIntact(
      Path file, JsonNode document, Class<? extends CustomResource<?, ?>> type) {
    JsonNode metadata = document.path("metadata");
    CustomResource<?, ?> stored =
        client
            .resources(type)
            .inNamespace(metadata.path("namespace").asText())
            .withName(metadata.path("name").asText())
            .get();
    JsonTrees.assertContains(
        document,
        Serialization.jsonMapper().valueToTree(stored),
        file.getFileName() + ":" + metadata.path("name").asText());
  }

  @Test
  void quotaWithMinAboveMaxIsRejectedNamingTheResource() {
    assertRejected(
        quota(
            "min-above-max",
            Map.of("cpu", "8", "memory", "1Gi"),
            Map.of("cpu", "4", "memory", "2Gi")),
        "spec.min exceeds spec.max for cpu");
  }

  @Test
  void quotaWithNegativeQuantityIsRejectedNamingTheResource() {
    assertRejected(
        quota("negative-min", Map.of("cpu", "-1"), Map.of("cpu", "4")),
        "spec.min must not be negative for cpu");
    assertRejected(
        quota("negative-max", Map.of(), Map.of("memory", "-2Gi")),
        "spec.max must not be negative for memory");
  }

  @Test
  void quotaWithMinResourceMissingFromMaxIsRejectedNamingTheResource() {
    assertRejected(
        quota(
            "min-key-not-in-max", Map.of("cpu", "1", "nvidia.com/gpu", "1"), Map.of("cpu", "2")),
        "spec.min names a resource that spec.max does not: nvidia.com/gpu");
  }

  static ElasticQuota quota(String name, Map<String, String> min, Map<String, String> max) {
    ElasticQuota quota = new ElasticQuota();
    quota.getMetadata().setName(name);
    quota.getMetadata().setNamespace(TEST_NAMESPACE);
    ElasticQuotaSpec spec = new ElasticQuotaSpec();
    spec.setMin(quantities(min));
    spec.setMax(quantities(max));
    quota.setSpec(spec);
    return quota;
  }

  static Map<String, Quantity> quantities(Map<String, String> values) {
    Map<String, Quantity> result = new TreeMap<>();
    values.forEach((resource, amount) -> result.put(resource, new Quantity(amount)));
    return result;
  }

  static void assertRejected(ElasticQuota quota, String message) {
    assertThatThrownBy(() -> client.resource(quota).dryRun().create())
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining(message)
        .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(422));
  }
}
