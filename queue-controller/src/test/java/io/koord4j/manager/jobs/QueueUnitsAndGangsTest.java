package io.koord4j.manager.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.koord4j.api.WellKnown;
import io.koord4j.api.gang.PodGroup;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.jobs.BatchJobAdapter;
import io.koord4j.jobs.GangShape;
import io.koord4j.jobs.PodSetInfo;
import io.koord4j.testing.TestJobs;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueueUnitsAndGangsTest {
  private final BatchJobAdapter adapter = new BatchJobAdapter();

  @Test
  void aJobsUnitIsNamedLikeItOwnedByItAndAsksForAllItsPods() {
    QueueUnit unit = QueueUnits.desired(adapter, job(3), "nlp", 100);

    assertThat(unit.getMetadata().getName()).isEqualTo("train");
    assertThat(unit.getMetadata().getNamespace()).isEqualTo("ns");
    assertThat(unit.getMetadata().getLabels()).containsEntry(WellKnown.QUOTA_NAME, "nlp");
    assertThat(unit.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(
            owner -> {
              assertThat(owner.getKind()).isEqualTo("Job");
              assertThat(owner.getUid()).isEqualTo("uid-1");
              assertThat(owner.getController()).isTrue();
            });
    assertThat(unit.getSpec().getQueue()).isEqualTo("nlp");
    assertThat(unit.getSpec().getPriority()).isEqualTo(100);
    assertThat(unit.getSpec().getConsumerRef().getName()).isEqualTo("train");
    assertThat(unit.getSpec().getPodSet()).singleElement()
        .satisfies(podSet -> assertThat(podSet.getCount()).isEqualTo(3));
    assertThat(unit.getSpec().getResource()).containsEntry("cpu", new Quantity("3"));
  }

  @Test
  void aUnitSaysHowManySucceededPodsItsJobReplaces() {
    Job tenCompletions = new JobBuilder(job(3)).editSpec().withCompletions(10).endSpec().build();

    assertThat(QueueUnits.desired(adapter, tenCompletions, "nlp", 100).getMetadata().getAnnotations())
        .containsEntry(WellKnown.SUCCEEDED_PODS_REPLACED, "7");
  }

  @Test
  void aUnitHoldsQuotaForItsJobsShapeUntilTheJobGrows() {
    QueueUnit unit = QueueUnits.desired(adapter, job(3), "nlp", 100);

    assertThat(QueueUnits.shape(unit).changeTo(GangShape.of(adapter, job(3)))).isEmpty();
    assertThat(QueueUnits.shape(unit).changeTo(GangShape.of(adapter, job(5))))
        .contains("pod set \"main\" from 3 to 5 pods, cpu from 3 to 5");
  }

  @Test
  void onlyJobsOfMoreThanOnePodGetAPodGroupOfAllTheirPods() {
    assertThat(Gangs.needsPodGroup(adapter.podSets(job(1)))).isFalse();
    PodGroup group = Gangs.podGroup(job(4), adapter.podSets(job(4)));

    assertThat(group.getMetadata().getName()).isEqualTo("train");
    assertThat(group.getSpec().getMinMember()).isEqualTo(4);
    assertThat(group.getMetadata().getOwnerReferences()).hasSize(1);
  }

  @Test
  void aGangWaitsOnlyForThePodsThatMustStartTogether() {
    Job job = job(3);
    PodTemplateSpec template = job.getSpec().getTemplate();
    List<PodSetInfo> podSets = List.of(
        new PodSetInfo("driver", 1, 1, template, Map.of()), new PodSetInfo("executor", 2, 0, template, Map.of()));

    assertThat(Gangs.podGroup(job, podSets).getSpec().getMinMember()).isEqualTo(1);
    assertThat(Gangs.join(template, job, podSets, "nlp").getMetadata().getAnnotations())
        .containsEntry(WellKnown.GANG_MIN_AVAILABLE, "1")
        .containsEntry(WellKnown.GANG_TOTAL_NUMBER, "3");
  }

  @Test
  void joinedTemplatesNameTheirGangAndUnit() {
    Job job = job(2);
    Job single = job(1);
    PodTemplateSpec joined = Gangs.join(job.getSpec().getTemplate(), job, adapter.podSets(job), "nlp");
    PodTemplateSpec alone = Gangs.join(single.getSpec().getTemplate(), single, adapter.podSets(single), "nlp");

    assertThat(joined.getMetadata().getLabels()).containsEntry(WellKnown.POD_GROUP_LABEL, "train");
    assertThat(joined.getMetadata().getAnnotations())
        .containsEntry(WellKnown.RELATED_QUEUEUNIT, "ns/train")
        .containsEntry(WellKnown.UNIT_QUOTA, "nlp")
        .containsEntry(WellKnown.GANG_NAME, "train")
        .containsEntry(WellKnown.GANG_MIN_AVAILABLE, "2")
        .containsEntry(WellKnown.GANG_TOTAL_NUMBER, "2");
    assertThat(alone.getMetadata().getLabels()).doesNotContainKey(WellKnown.POD_GROUP_LABEL);
    assertThat(alone.getMetadata().getAnnotations()).doesNotContainKey(WellKnown.GANG_NAME);
  }

  private static Job job(int pods) {
    return TestJobs.job("ns", "train", "1")
        .editMetadata().withUid("uid-1").addToLabels(WellKnown.QUOTA_NAME, "nlp").endMetadata()
        .editSpec().withParallelism(pods).endSpec()
        .build();
  }
}
