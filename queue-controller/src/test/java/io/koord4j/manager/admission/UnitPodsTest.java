package io.koord4j.manager.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.koord4j.api.WellKnown;
import org.junit.jupiter.api.Test;

class UnitPodsTest {

  @Test
  void aUnitHasPodsUntilTheLastOneEndsOrIsGone() {
    UnitPods pods = new UnitPods();

    assertThat(pods.update(pod("p0", "ns/job", "Running"))).contains("ns/job");
    assertThat(pods.update(pod("p1", "ns/job", "Running"))).isEmpty();
    assertThat(pods.update(pod("p0", "ns/job", "Succeeded"))).as("one more succeeded").contains("ns/job");
    assertThat(pods.hasPods("ns/job")).isTrue();
    assertThat(pods.remove(pod("p1", "ns/job", "Running"))).contains("ns/job");
    assertThat(pods.hasPods("ns/job")).isFalse();
  }

  @Test
  void aTerminatingPodStillCounts() {
    UnitPods pods = new UnitPods();
    Pod terminating = pod("p0", "ns/job", "Running");
    terminating.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z");

    assertThat(pods.update(pod("p0", "ns/job", "Running"))).contains("ns/job");
    assertThat(pods.hasPodsBeingDeleted("ns/job")).isFalse();
    assertThat(pods.update(terminating)).contains("ns/job");

    assertThat(pods.hasPods("ns/job")).isTrue();
    assertThat(pods.hasPodsBeingDeleted("ns/job")).isTrue();
    assertThat(pods.remove(terminating)).contains("ns/job");
    assertThat(pods.hasPodsBeingDeleted("ns/job")).isFalse();
  }

  @Test
  void succeededPodsAreCountedWhileTheyExist() {
    UnitPods pods = new UnitPods();
    pods.update(pod("p0", "ns/job", "Running"));
    pods.update(pod("p1", "ns/job", "Running"));

    assertThat(pods.update(pod("p0", "ns/job", "Succeeded"))).contains("ns/job");
    assertThat(pods.update(pod("p0", "ns/job", "Succeeded"))).as("seen again").isEmpty();
    assertThat(pods.update(pod("p1", "ns/job", "Failed"))).as("its last live pod ended").contains("ns/job");
    assertThat(pods.succeeded("ns/job")).isEqualTo(1);
    assertThat(pods.remove(pod("p0", "ns/job", "Succeeded"))).contains("ns/job");
    assertThat(pods.succeeded("ns/job")).isZero();
  }

  @Test
  void podsOfNoUnitAndEndedPodsAreIgnored() {
    UnitPods pods = new UnitPods();

    assertThat(pods.update(pod("p0", null, "Running"))).isEmpty();
    assertThat(pods.update(pod("p1", "ns/job", "Failed"))).isEmpty();
    assertThat(pods.hasPods("ns/job")).isFalse();
  }

  @Test
  void readyAndSucceededPodsCountTowardsTheGangAndBecomingReadyIsNoticedOnce() {
    UnitPods pods = new UnitPods();
    pods.update(pod("p0", "ns/job", "Pending"));
    pods.update(pod("p1", "ns/job", "Running"));
    assertThat(pods.readyOrSucceeded("ns/job")).isZero();

    assertThat(pods.becomesReady(ready(pod("p1", "ns/job", "Running")))).isTrue();
    pods.update(ready(pod("p1", "ns/job", "Running")));
    assertThat(pods.becomesReady(ready(pod("p1", "ns/job", "Running")))).as("seen ready before").isFalse();
    assertThat(pods.becomesReady(pod("p0", "ns/job", "Pending"))).isFalse();
    pods.update(pod("p0", "ns/job", "Succeeded"));

    assertThat(pods.readyOrSucceeded("ns/job")).isEqualTo(2);
  }

  private static Pod ready(Pod pod) {
    return new PodBuilder(pod).editStatus().addNewCondition().withType("Ready").withStatus("True").endCondition()
        .endStatus().build();
  }

  private static Pod pod(String name, String unit, String phase) {
    PodBuilder pod =
        new PodBuilder().withNewMetadata().withNamespace("ns").withName(name).endMetadata();
    if (unit != null) {
      pod.editMetadata().addToAnnotations(WellKnown.RELATED_QUEUEUNIT, unit).endMetadata();
    }
    return pod.withNewStatus().withPhase(phase).endStatus().build();
  }
}
