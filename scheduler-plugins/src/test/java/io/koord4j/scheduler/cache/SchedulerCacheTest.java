package io.koord4j.scheduler.cache;

import static io.koord4j.scheduler.Fixtures.boundTo;
import static io.koord4j.scheduler.Fixtures.node;
import static io.koord4j.scheduler.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.koord4j.scheduler.framework.NodeInfo;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SchedulerCacheTest {

  private final SchedulerCache cache =
      new SchedulerCache(pod -> Optional.ofNullable(pod.getMetadata().getLabels()).map(l -> l.get("gang")));

  @Test
  void anAssumedPodCountsAtOnceAndIsReleasedWhenForgotten() {
    cache.upsertNode(node("n", "4", "8Gi"));
    Pod pod = pod("p", "1", "1Gi");
    cache.upsertPod(pod);

    cache.assume(pod, "n");
    assertThat(usage()).isEqualTo(new long[] {1000, 1});
    cache.upsertPod(pod); // a late pending update keeps the assumption
    assertThat(usage()).isEqualTo(new long[] {1000, 1});

    cache.forget(pod.getMetadata().getUid());
    assertThat(usage()).isEqualTo(new long[] {0, 0});
  }

  @Test
  void theInformerConfirmsAnAssumedPodWithoutCountingItTwice() {
    cache.upsertNode(node("n", "4", "8Gi"));
    Pod pod = pod("p", "1", "1Gi");
    cache.assume(pod, "n");
    cache.upsertPod(boundTo(pod, "n"));
    assertThat(cache.isAssumed(pod.getMetadata().getUid())).isFalse();
    cache.forget(pod.getMetadata().getUid());
    assertThat(usage()).isEqualTo(new long[] {1000, 1});
  }

  @Test
  void finishedAndDeletedPodsFreeTheirNode() {
    cache.upsertNode(node("n", "4", "8Gi"));
    Pod a = boundTo(pod("a", "1", "1Gi"), "n");
    Pod b = boundTo(pod("b", "2", "1Gi"), "n");
    cache.upsertPod(a);
    cache.upsertPod(b);
    cache.upsertPod(new PodBuilder(a).withNewStatus().withPhase("Succeeded").endStatus().build());
    cache.removePod(b.getMetadata().getUid());
    assertThat(usage()).isEqualTo(new long[] {0, 0});
  }

  @Test
  void countsGroupMembersAndPlacedMembers() {
    Pod first = new PodBuilder(pod("a", "1", "1Gi")).editMetadata().addToLabels("gang", "g").endMetadata().build();
    Pod second = new PodBuilder(pod("b", "1", "1Gi")).editMetadata().addToLabels("gang", "g").endMetadata().build();
    cache.upsertPod(first);
    cache.upsertPod(second);
    cache.assume(first, "n");
    assertThat(cache.groupMembers("g")).isEqualTo(2);
    assertThat(cache.groupPlaced("g")).isEqualTo(1);
    cache.removePod(second.getMetadata().getUid());
    assertThat(cache.groupMembers("g")).isEqualTo(1);
  }

  @Test
  void succeededMembersStillCountSoThatTheRestOfTheGangCanBePlaced() {
    cache.upsertNode(node("n", "4", "8Gi"));
    Pod done = boundTo(member("done"), "n");
    Pod failed = boundTo(member("failed"), "n");
    Pod pending = member("pending");
    cache.upsertPod(done);
    cache.upsertPod(failed);
    cache.upsertPod(pending);
    cache.upsertPod(new PodBuilder(done).withNewStatus().withPhase("Succeeded").endStatus().build());
    cache.upsertPod(new PodBuilder(failed).withNewStatus().withPhase("Failed").endStatus().build());

    assertThat(cache.groupMembers("g")).as("the succeeded and the pending member").isEqualTo(2);
    assertThat(cache.groupPlaced("g")).as("the succeeded member").isEqualTo(1);
    assertThat(usage()).as("a succeeded pod holds nothing").isEqualTo(new long[] {0, 0});
    cache.assume(pending, "n");
    assertThat(cache.groupPlaced("g")).isEqualTo(2);

    cache.removePod(done.getMetadata().getUid());
    assertThat(cache.groupMembers("g")).isEqualTo(1);
    assertThat(cache.groupPlaced("g")).isEqualTo(1);
  }

  @Test
  void aSnapshotHoldsEveryNodeOnceAsItIsNowAfterNodesComeAndGo() {
    cache.upsertNode(node("a", "4", "8Gi"));
    cache.upsertNode(node("b", "4", "8Gi"));
    cache.upsertNode(node("c", "4", "8Gi"));
    List<NodeInfo> before = cache.snapshot();
    cache.removeNode("a");
    cache.assume(pod("p", "1", "1Gi"), "c");
    cache.upsertNode(node("d", "8", "8Gi"));

    Map<String, NodeInfo> after =
        cache.snapshot().stream().collect(Collectors.toMap(NodeInfo::name, node -> node));

    assertThat(after.keySet()).containsExactlyInAnyOrder("b", "c", "d");
    assertThat(after.get("c").requested().get("cpu")).isEqualTo(1000);
    assertThat(after.get("d").allocatable().get("cpu")).isEqualTo(8000);
    assertThat(before).extracting(NodeInfo::name).containsExactlyInAnyOrder("a", "b", "c");
    assertThat(before).allMatch(node -> node.podCount() == 0, "taken before the pod was assumed");
  }

  private static Pod member(String name) {
    return new PodBuilder(pod(name, "1", "1Gi")).editMetadata().addToLabels("gang", "g").endMetadata().build();
  }

  private long[] usage() {
    NodeInfo node = cache.snapshot().get(0);
    return new long[] {node.requested().get("cpu"), node.podCount()};
  }
}
