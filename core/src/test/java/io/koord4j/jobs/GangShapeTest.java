package io.koord4j.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import org.junit.jupiter.api.Test;

class GangShapeTest {
  private final BatchJobAdapter adapter = new BatchJobAdapter();

  @Test
  void moreParallelismIsAChangeOfPodCountAndRequest() {
    Job job = Fixtures.job("parallel");
    Job grown = new JobBuilder(job).editSpec().withParallelism(job.getSpec().getParallelism() * 2).endSpec().build();

    String change = GangShape.of(adapter, job).changeTo(GangShape.of(adapter, grown)).orElseThrow();

    int before = job.getSpec().getParallelism();
    assertThat(change).startsWith("pod set \"main\" from " + before + " to " + before * 2 + " pods, ");
    assertThat(change).contains("cpu from ");
  }

  @Test
  void aLargerRequestPerPodIsAChangeOfRequestOnly() {
    Job job = Fixtures.job("parallel");
    Job bigger =
        new JobBuilder(job).editSpec().editTemplate().editSpec().editFirstContainer().editResources()
            .addToRequests("cpu", new Quantity("64"))
            .endResources().endContainer().endSpec().endTemplate().endSpec().build();

    assertThat(GangShape.of(adapter, job).changeTo(GangShape.of(adapter, bigger)))
        .hasValueSatisfying(change -> assertThat(change).startsWith("cpu from ").doesNotContain("pod set"));
  }

  @Test
  void aChangeOutsideCountsAndRequestsIsNone() {
    Job job = Fixtures.job("parallel");
    Job relabelled =
        new JobBuilder(job).editMetadata().addToLabels("team", "other").endMetadata().build();

    assertThat(GangShape.of(adapter, job).changeTo(GangShape.of(adapter, relabelled))).isEmpty();
  }
}
