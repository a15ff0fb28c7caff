package io.koord4j.colocation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.koord4j.api.WellKnown;
import io.koord4j.quota.ResourceVector;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ThirdPartyAllocationsTest {
  private static final long GIB = 1L << 30;
  /** YARN uses 1 core and 1 GiB and may fill 3 cores and 3 GiB more. */
  private static final String YARN = """
      {"allocations":[
        {"name":"hadoop-yarn","priority":"koord-batch","resources":{"kubernetes.io/batch-cpu":"1000","kubernetes.io/batch-memory":"1Gi"}},
        {"name":"hadoop-yarn-reserved","priority":"koord-batch","resources":{"kubernetes.io/batch-cpu":"3000","kubernetes.io/batch-memory":"3Gi"}},
        {"name":"other","priority":"koord-prod","resources":{"kubernetes.io/batch-cpu":"7000"}}]}
      """;
  private static final String ORIGIN = """
      {"resources":{"kubernetes.io/batch-cpu":"8000","kubernetes.io/batch-memory":"8Gi"}}""";

  @Test
  void splitsWhatThirdPartiesUseFromTheRoomTheyReserveAndCountsOnlyKoordBatchEntries() {
    ThirdPartyAllocations allocations = ThirdPartyAllocations.of("n", Map.of(WellKnown.THIRD_PARTY_ALLOCATIONS, YARN));

    assertThat(allocations.used()).isEqualTo(batch(1000, GIB));
    assertThat(allocations.reserved()).isEqualTo(batch(3000, 3 * GIB));
    assertThat(ThirdPartyAllocations.of("n", null)).isEqualTo(ThirdPartyAllocations.NONE);
  }

  @Test
  void anUnreadableAnnotationIsAnErrorNamingTheNodeAndTheAnnotation() {
    assertThatThrownBy(() -> ThirdPartyAllocations.of("n", Map.of(WellKnown.THIRD_PARTY_ALLOCATIONS, "{")))
        .hasMessageStartingWith("node n: annotation node.koordinator.sh/thirdPartyAllocations is not valid JSON");
    String badAmount = """
        {"allocations":[{"name":"x","priority":"koord-batch","resources":{"kubernetes.io/batch-cpu":"lots"}}]}""";
    assertThatThrownBy(() -> ThirdPartyAllocations.of("n", Map.of(WellKnown.THIRD_PARTY_ALLOCATIONS, badAmount)))
        .hasMessageContaining("kubernetes.io/batch-cpu: \"lots\" is not a valid quantity");
  }

  @Test
  void whenTheControllerTookOffWhatYarnUsesPodsAreKeptOutOfTheReservedRoom() {
    // The controller's allocatable: origin 8 less YARN's use 1.
    Node node = node(Map.of(WellKnown.THIRD_PARTY_ALLOCATIONS, YARN, WellKnown.ORIGIN_EXTENDED_ALLOCATABLE, ORIGIN));

    assertThat(ThirdPartyAllocations.roomHeldFromPods(node, batch(7000, 7 * GIB))).isEqualTo(batch(3000, 3 * GIB));
  }

  @Test
  void whileTheControllerHasNotYetTakenOffAUseThatGrewFromTheReservedRoomPodsStillGetNoPartOfIt() {
    // The record moved 1 core from reserved to used; the allocatable still shows the old use of 1.
    String grown = YARN.replace("\"1000\"", "\"2000\"").replace("\"3000\"", "\"2000\"");
    Node node = node(Map.of(WellKnown.THIRD_PARTY_ALLOCATIONS, grown, WellKnown.ORIGIN_EXTENDED_ALLOCATABLE, ORIGIN));

    ResourceVector room = ThirdPartyAllocations.roomHeldFromPods(node, batch(7000, 7 * GIB));

    assertThat(batch(7000, 7 * GIB).subtract(room)).as("left for pods: origin less both entries")
        .isEqualTo(batch(4000, 4 * GIB));
  }

  @Test
  void aControllerThatTakesOffEveryEntryLeavesNothingHeldAndWithoutOneEveryEntryIsHeld() {
    Node byEveryEntry = node(Map.of(WellKnown.THIRD_PARTY_ALLOCATIONS, YARN, WellKnown.ORIGIN_EXTENDED_ALLOCATABLE, ORIGIN));
    assertThat(ThirdPartyAllocations.roomHeldFromPods(byEveryEntry, batch(4000, 4 * GIB))).isEqualTo(batch(0, 0));

    Node noController = node(Map.of(WellKnown.THIRD_PARTY_ALLOCATIONS, YARN));
    assertThat(ThirdPartyAllocations.roomHeldFromPods(noController, batch(8000, 8 * GIB))).isEqualTo(batch(4000, 4 * GIB));
    assertThat(ThirdPartyAllocations.roomHeldFromPods(noController, batch(2000, 2 * GIB)))
        .as("never more than the allocatable").isEqualTo(batch(2000, 2 * GIB));
    assertThat(ThirdPartyAllocations.roomHeldFromPods(node(Map.of()), batch(8000, 8 * GIB))).isEqualTo(ResourceVector.EMPTY);
  }

  private static ResourceVector batch(long milliCpu, long memoryBytes) {
    return ResourceVector.of(WellKnown.BATCH_CPU, milliCpu, WellKnown.BATCH_MEMORY, memoryBytes);
  }

  private static Node node(Map<String, String> annotations) {
    return new NodeBuilder().withNewMetadata().withName("n").withAnnotations(new HashMap<>(annotations)).endMetadata().build();
  }
}
