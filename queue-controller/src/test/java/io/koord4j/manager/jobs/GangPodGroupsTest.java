package io.koord4j.manager.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.koord4j.api.WellKnown;
import io.koord4j.jobs.BatchJobAdapter;
import io.koord4j.manager.support.SharedInformers;
import io.koord4j.testing.TestJobs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class GangPodGroupsTest {
  /** No API server listens here: every write fails as a refused connection. */
  private final KubernetesClient unreachable =
      new KubernetesClientBuilder()
          .withConfig(new ConfigBuilder().withMasterUrl("https://127.0.0.1:1").withRequestRetryBackoffLimit(0).build())
          .build();
  private final SharedInformers informers = new SharedInformers(unreachable);
  private final GangPodGroups groups = new GangPodGroups(informers);
  private final BatchJobAdapter adapter = new BatchJobAdapter();

  @AfterEach
  void close() {
    informers.close();
    unreachable.close();
  }

  @Test
  void aGroupWrittenBesideAnotherWriteFailsItsReconcileWithTheClientsOwnError() {
    Job gang = job(3);

    var group = groups.ensureBeside(gang, adapter.podSets(gang), unreachable);

    // Thrown as the client's error, not wrapped: the reconcile fails and is retried like any other.
    assertThatThrownBy(() -> groups.await(group)).isInstanceOf(KubernetesClientException.class);
  }

  @Test
  void aSinglePodJobHasNoGroupToWrite() {
    Job single = job(1);

    var group = groups.ensureBeside(single, adapter.podSets(single), unreachable);

    assertThat(group).isCompleted();
    groups.await(group);
  }

  private static Job job(int pods) {
    return TestJobs.job("ns", "train", "1")
        .editMetadata().withUid("uid-1").addToLabels(WellKnown.QUOTA_NAME, "nlp").endMetadata()
        .editSpec().withParallelism(pods).endSpec()
        .build();
  }
}
