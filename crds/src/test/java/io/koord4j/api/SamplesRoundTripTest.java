package io.koord4j.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Reading a sample into the model classes and writing it back loses and adds nothing. */
class SamplesRoundTripTest {

  static Stream<Path> sampleFiles() {
    return Manifests.sampleFiles().stream();
  }

  @ParameterizedTest
  @MethodSource("sampleFiles")
  void modelRoundTripKeepsEveryField(Path file) throws Exception {
    ObjectMapper yaml = Serialization.yamlMapper();
    List<JsonNode> documents = Manifests.documents(file);
    assertThat(documents).as("documents in %s", file).isNotEmpty();
    for (JsonNode document : documents) {
      if (document.path("apiVersion").asText().equals("v1")) {
        continue; // core objects such as the samples' namespace are not ours to model
      }
      Class<? extends CustomResource<?, ?>> type =
          Manifests.modelClass(document)
              .orElseThrow(() -> new AssertionError(file + " holds an unknown kind: " + document));
      CustomResource<?, ?> model = yaml.treeToValue(document, type);
      JsonNode written = yaml.readTree(Serialization.asYaml(model));
      JsonTrees.assertSame(document, written, file.getFileName() + ":" + model.getMetadata().getName());
    }
  }
}
