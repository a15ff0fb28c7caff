package io.koord4j.device;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WorkloadProfileTest {

  @Test
  void learnsTheSharesOfEachTaskClassFromThePodsItSees() {
    WorkloadProfile profile = new WorkloadProfile();
    assertThat(profile.snapshot()).isEmpty();

    for (int i = 0; i < 3; i++) {
      profile.observe(null, 1000, 1 << 30, GpuRequest.share(50, 50));
    }
    profile.observe(null, 2000, 1 << 30, GpuRequest.wholeGpus(2));

    assertThat(profile.snapshot())
        .containsExactly(
            new TaskClass(1000, 1 << 30, 1, 50, 0.75), new TaskClass(2000, 1 << 30, 2, 100, 0.25));
  }

  @Test
  void aPodTriedAgainWhileItWaitsCountsOnce() {
    WorkloadProfile profile = new WorkloadProfile();
    profile.observe("waiting", 2000, 1 << 30, GpuRequest.wholeGpus(2));
    for (int i = 0; i < 3; i++) {
      profile.observe("share-" + i, 1000, 1 << 30, GpuRequest.share(50, 50));
    }
    profile.observe("waiting", 2000, 1 << 30, GpuRequest.wholeGpus(2));
    profile.observe("waiting", 2000, 1 << 30, GpuRequest.wholeGpus(2));

    assertThat(profile.snapshot())
        .containsExactly(
            new TaskClass(1000, 1 << 30, 1, 50, 0.75), new TaskClass(2000, 1 << 30, 2, 100, 0.25));
  }

  @Test
  void theSnapshotChangesOnlyAtPowersOfTwoSoScoresStayComparable() {
    WorkloadProfile profile = new WorkloadProfile();
    profile.observe(null, 1000, 0, null);
    profile.observe(null, 1000, 0, null);
    long afterTwo = profile.version();

    profile.observe(null, 3000, 0, GpuRequest.wholeGpus(1));

    assertThat(profile.version()).isEqualTo(afterTwo);
    assertThat(profile.snapshot()).containsExactly(new TaskClass(1000, 0, 0, 0, 1));
    profile.observe(null, 3000, 0, GpuRequest.wholeGpus(1));
    assertThat(profile.version()).isGreaterThan(afterTwo);
    assertThat(profile.snapshot()).hasSize(2);
  }
}
