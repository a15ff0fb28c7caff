package io.koord4j.yarn.sync;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class ThirdPartyAllocationsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void writesKoordinatorsFormatInMillicoresAndBytes() throws Exception {
    String annotation = ThirdPartyAllocations.withYarn(null, new YarnResources(2, 1024), YarnResources.ZERO);

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

    JsonNode after = JSON.readTree(ThirdPartyAllocations.withYarn(before, YarnResources.ZERO, YarnResources.ZERO));

    assertThat(after.get("allocations")).hasSize(2);
    assertThat(after.at("/allocations/0/name").asText()).isEqualTo("spark-standalone");
    assertThat(after.at("/allocations/1/resources/kubernetes.io~1batch-cpu").asText()).isEqualTo("0");
    assertThat(after.at("/allocations/1/resources/kubernetes.io~1batch-memory").asText()).isEqualTo("0");
  }

  @Test
  void sameUseGivesTheSameTextSoNothingIsRewritten() {
    String once = ThirdPartyAllocations.withYarn(null, new YarnResources(1, 512), YarnResources.ZERO);

    assertThat(ThirdPartyAllocations.withYarn(once, new YarnResources(1, 512), YarnResources.ZERO)).isEqualTo(once);
  }

  @Test
  void unreadableAnnotationIsReplacedAndHasNoYarnEntry() {
    assertThat(ThirdPartyAllocations.hasYarn("not json")).isFalse();
    assertThat(ThirdPartyAllocations.hasYarn("{\"allocations\":{}}")).isFalse();
    assertThat(ThirdPartyAllocations.hasYarn(null)).isFalse();
    assertThat(ThirdPartyAllocations.withYarn("[1]", YarnResources.ZERO, YarnResources.ZERO)).contains("\"hadoop-yarn\"");
  }

  @Test
  void theRoomYarnMayStillFillIsASecondEntryThatGoesWhenItIsEmpty() throws Exception {
    String reserved = ThirdPartyAllocations.withYarn(null, new YarnResources(1, 512), new YarnResources(3, 1024));

    assertThat(JSON.readTree(reserved).at("/allocations/1/name").asText()).isEqualTo("hadoop-yarn-reserved");
    assertThat(ThirdPartyAllocations.yarnHeld(reserved)).isEqualTo(new BatchResources(4000, 1536L << 20));

    String released = ThirdPartyAllocations.withYarn(reserved, new YarnResources(1, 512), YarnResources.ZERO);
    assertThat(JSON.readTree(released).get("allocations")).hasSize(1);
    assertThat(ThirdPartyAllocations.yarnHeld(released)).isEqualTo(new BatchResources(1000, 512L << 20));
  }

  @Test
  void yarnHeldSumsYarnsEntriesOnly() {
    String annotation =
        "{\"allocations\":[{\"name\":\"spark-standalone\",\"priority\":\"koord-batch\",\"resources\":{\"kubernetes.io/batch-cpu\":\"500\"}},"
            + "{\"name\":\"hadoop-yarn\",\"priority\":\"koord-batch\",\"resources\":{\"kubernetes.io/batch-cpu\":\"2000\",\"kubernetes.io/batch-memory\":\"1Gi\"}}]}";

    assertThat(ThirdPartyAllocations.yarnHeld(annotation)).isEqualTo(new BatchResources(2000, 1L << 30));
    assertThat(ThirdPartyAllocations.hasYarn(annotation)).isTrue();
    assertThat(ThirdPartyAllocations.yarnHeld(null)).isEqualTo(BatchResources.ZERO);
    assertThat(ThirdPartyAllocations.hasYarn("{\"allocations\":[]}")).isFalse();
  }
}
