package io.koord4j.manager.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InvalidJobsTest {
  @Test
  void readsTheConditionsOfABatchJob() {
    Job job = new JobBuilder().withNewMetadata().withName("train").endMetadata()
        .withNewStatus().addNewCondition().withType("Suspended").withStatus("True").endCondition()
        .addNewCondition().withType(InvalidJobs.CONDITION).withReason(InvalidJobs.REASON).endCondition()
        .endStatus().build();

    assertThat(InvalidJobs.conditionsOf(job).get(1).path("reason").asText()).isEqualTo(InvalidJobs.REASON);
  }

  @Test
  void readsTheConditionsOfAJobKindWithoutAType() {
    GenericKubernetesResource job = new GenericKubernetesResource();
    job.setAdditionalProperty("status", Map.of("conditions", List.of(Map.of("type", InvalidJobs.CONDITION, "reason", "Other"))));

    assertThat(InvalidJobs.conditionsOf(job).get(0).path("type").asText()).isEqualTo(InvalidJobs.CONDITION);
  }

  @Test
  void aJobWithoutStatusHasNoConditions() {
    assertThat(InvalidJobs.conditionsOf(new JobBuilder().build()).size()).isZero();
    assertThat(InvalidJobs.conditionsOf(new GenericKubernetesResource()).size()).isZero();
  }
}
