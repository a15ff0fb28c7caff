package io.koord4j.yarn.sync;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class ThirdPartyAllocationsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void writesKoordinatorsFormatInMillicoresAndBytes() throws Exception {
    String annotation = ThirdPartyAllocations.withYarn(null, new YarnResources(2, 1024));

    assertThat(JSON.readTree(annotation))
        .isEqualTo(
            JSON.readTree(
                "{\"allocations\":[{\"name\":\"hadoop-yarn\",\"priority\":\"koord-batch\",\"resources\":"
                    + "{\"kubernetes.io/batch-cpu\":\"2000\",\"kubernetes.io/batch-memory\":\"1073741824\"}}]}"));
    assertThat(ThirdPartyAllocations.hasYarn(annotation)).isTrue();
  }

  @Test
  void replacesOnlyYarnsEntryAndKeepsOtherAllocators() throws Exception {
    String before =
        "{\"allocations\":[{\"name\":\"spark-standalone\",\"priority\":\"koord-batch\",\"resources\":{\"kubernetes.io/batch-cpu\":\"500\"}},"
            + "{\"name\":\"hadoop-yarn\",\"priority\":\"koord-batch\",\"resources\":{\"kubernetes.io/batch-cpu\":\"10000\",\"kubernetes.io/batch-memory\":\"10Gi\"}}]}";

    JsonNode after = JSON.readTree(ThirdPartyAllocations.withYarn(before, YarnResources.ZERO));

    assertThat(after.get("allocations")).hasSize(2);
    assertThat(after.at("/allocations/0/name").asText()).isEqualTo("spark-standalone");
    assertThat(after.at("/allocations/1/resources/kubernetes.io~1batch-cpu").asText()).isEqualTo("0");
    assertThat(after.at("/allocations/1/resources/kubernetes.io~1batch-memory").asText()).isEqualTo("0");
  }

  @Test
  void sameUseGivesTheSameTextSoNothingIsRewritten() {
    String once = ThirdPartyAllocations.withYarn(null, new YarnResources(1, 512));

    assertThat(ThirdPartyAllocations.withYarn(once, new YarnResources(1, 512))).isEqualTo(once);
  }

  @Test
  void unreadableAnnotationIsReplacedAndHasNoYarnEntry() {
    assertThat(ThirdPartyAllocations.hasYarn("not json")).isFalse();
    assertThat(ThirdPartyAllocations.hasYarn("{\"allocations\":{}}")).isFalse();
    assertThat(ThirdPartyAllocations.hasYarn(null)).isFalse();
    assertThat(ThirdPartyAllocations.withYarn("[1]", YarnResources.ZERO)).contains("\"hadoop-yarn\"");
  }
}
