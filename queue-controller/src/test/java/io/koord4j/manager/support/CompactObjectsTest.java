package io.koord4j.manager.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.ClientSerialization;
import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueItemDetail;
import io.koord4j.api.queue.QueueStatus;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitStatus;
import io.koord4j.jobs.BatchJobAdapter;
import io.koord4j.manager.jobs.QueueUnits;
import io.koord4j.testing.TestJobs;
import io.koord4j.testing.TestPods;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CompactObjectsTest {
  @Test
  void aStoredUnitSaysWhatItSaidBefore() {
    QueueUnit unit = waitingUnit("train-1");
    String before = Serialization.asJson(unit);

    CompactObjects.compact(unit);

    assertThat(Serialization.asJson(unit)).isEqualTo(before);
  }

  @Test
  void unitsShareTheValuesTheyRepeat() {
    QueueUnit first = waitingUnit("train-1");
    QueueUnit second = waitingUnit("train-2");

    CompactObjects.compact(first);
    CompactObjects.compact(second);

    assertThat(second.getMetadata().getNamespace()).isSameAs(first.getMetadata().getNamespace());
    assertThat(image(second)).isSameAs(image(first));
    assertThat(second.getStatus().getConditions().get(0).getReason())
        .isSameAs(first.getStatus().getConditions().get(0).getReason());
    assertThat(second.getMetadata().getAdditionalProperties())
        .as("the empty map every model object carries")
        .isSameAs(first.getMetadata().getAdditionalProperties());
    assertThat(second.getMetadata().getName()).isEqualTo("train-2");
  }

  @Test
  void unitsReadByTheManagersClientShareTheirMapKeys() {
    KubernetesSerialization client = ClientSerialization.withoutManagedFields();
    QueueUnit first = client.unmarshal(Serialization.asJson(waitingUnit("train-1")), QueueUnit.class);
    QueueUnit second = client.unmarshal(Serialization.asJson(waitingUnit("train-2")), QueueUnit.class);
    String firstKey = onlyLabelKey(first);
    assertThat(onlyLabelKey(second)).as("as read: a String of its own").isNotSameAs(firstKey);

    CompactObjects.compact(first);
    CompactObjects.compact(second);

    assertThat(onlyLabelKey(second)).isSameAs(onlyLabelKey(first)).isEqualTo(WellKnown.QUOTA_NAME);
    assertThat(second.getSpec().getResource().keySet())
        .isNotEmpty()
        .allSatisfy(key -> assertThat(key).isSameAs(key.intern()));
  }

  @Test
  void unitsOfOneTemplateShareItsSpec() {
    QueueUnit first = waitingUnit("train-1");
    QueueUnit second = waitingUnit("train-2");
    QueueUnit larger = waitingUnit("train-3", "4");
    String largerBefore = Serialization.asJson(larger);

    List.of(first, second, larger).forEach(CompactObjects::compact);

    assertThat(podSpec(second)).isSameAs(podSpec(first));
    assertThat(podSpec(larger)).isNotSameAs(podSpec(first));
    assertThat(Serialization.asJson(larger)).isEqualTo(largerBefore);
  }

  @Test
  void valuesThatAreAnObjectsOwnAreNotShared() {
    QueueUnit first = waitingUnit("train-1");
    QueueUnit second = waitingUnit("train-1");

    CompactObjects.compact(first);
    CompactObjects.compact(second);

    assertThat(second.getMetadata().getUid()).isEqualTo(first.getMetadata().getUid());
    assertThat(second.getMetadata().getUid()).isNotSameAs(first.getMetadata().getUid());
    assertThat(second.getMetadata().getResourceVersion()).isNotSameAs(first.getMetadata().getResourceVersion());
    assertThat(second.getMetadata().getOwnerReferences().get(0).getUid())
        .isNotSameAs(first.getMetadata().getOwnerReferences().get(0).getUid());
    assertThat(second.getMetadata().getNamespace()).isSameAs(first.getMetadata().getNamespace());
  }

  @Test
  void aUnitsNameIsSharedWithTheReferencesThatRepeatIt() {
    QueueUnit unit = waitingUnit("train-1");
    Queue queue = queueListing("train-1");

    CompactObjects.compact(unit);
    CompactObjects.compact(queue);

    String name = unit.getMetadata().getName();
    assertThat(unit.getSpec().getConsumerRef().getName()).isSameAs(name);
    assertThat(queue.getStatus().getQueueItemDetails().get(QueueStatus.ACTIVE).get(0).getName()).isSameAs(name);
  }

  @Test
  void unitsShareTheNamesOfTheirResource() {
    QueueUnit first = waitingUnit("train-1");
    QueueUnit second = waitingUnit("train-2");
    assertThat(second.getCRDName()).as("as read: a String of its own").isNotSameAs(first.getCRDName());

    CompactObjects.compact(first);
    CompactObjects.compact(second);

    assertThat(second.getApiVersion()).isSameAs(first.getApiVersion()).isEqualTo("scheduling.x-k8s.io/v1alpha1");
    assertThat(second.getCRDName()).isSameAs(first.getCRDName()).isEqualTo("queueunits.scheduling.x-k8s.io");
    assertThat(second.getSingular()).isSameAs(first.getSingular()).isEqualTo("queueunit");
  }

  @Test
  void copiesOfStoredObjectsCanBeChangedAndTheStoredOnesStayAsTheyWere() {
    QueueUnit storedUnit = waitingUnit("train-1");
    Pod storedPod = Serialization.unmarshal(Serialization.asJson(TestPods.pod("p", 0, Map.of("cpu", "1"), Map.of())), Pod.class);
    CompactObjects.compact(storedUnit);
    CompactObjects.compact(storedPod);

    QueueUnit unit = Json.copy(storedUnit);
    unit.getStatus().getConditions().add(condition("Admitted"));
    unit.getMetadata().getFinalizers().add("keep");
    unit.getMetadata().getLabels().put("team", "search");
    Pod pod =
        new PodBuilder(storedPod)
            .editMetadata().addToAnnotations("note", "seen").endMetadata()
            .editSpec()
            .addNewToleration().withKey("gpu").endToleration()
            .editFirstContainer().editResources().addToRequests("memory", new Quantity("1Gi")).endResources().endContainer()
            .endSpec()
            .build();

    assertThat(unit.getStatus().getConditions()).hasSize(2);
    assertThat(pod.getMetadata().getAnnotations()).containsEntry("note", "seen");
    assertThat(pod.getSpec().getTolerations()).hasSize(1);
    assertThat(unit.getMetadata().getLabels()).hasSize(2);
    assertThat(pod.getSpec().getContainers().get(0).getResources().getRequests()).containsKeys("cpu", "memory");
    assertThat(storedUnit.getStatus().getConditions()).hasSize(1);
    assertThat(storedUnit.getMetadata().getFinalizers()).isEmpty();
    assertThat(storedPod.getMetadata().getAnnotations()).isEmpty();
    assertThat(storedPod.getSpec().getTolerations()).isEmpty();
    assertThat(storedUnit.getMetadata().getLabels()).containsOnlyKeys(WellKnown.QUOTA_NAME);
    assertThat(storedPod.getSpec().getContainers().get(0).getResources().getRequests()).containsOnlyKeys("cpu");
  }

  /** A unit as an informer gets it: read from the API server's JSON. */
  private static QueueUnit waitingUnit(String name) {
    return waitingUnit(name, "2");
  }

  private static QueueUnit waitingUnit(String name, String cpu) {
    Job job =
        TestJobs.job("team-a", name, cpu)
            .editMetadata().withUid("uid-" + name).addToLabels(WellKnown.QUOTA_NAME, "nlp").endMetadata()
            .build();
    QueueUnit unit = QueueUnits.desired(new BatchJobAdapter(), job, "nlp", 3);
    unit.getMetadata().setResourceVersion("1234");
    unit.getMetadata().setUid("unit-uid-" + name);
    QueueUnitStatus status = new QueueUnitStatus();
    status.setPhase("Pending");
    status.setMessage("waiting for quota nlp");
    status.setConditions(List.of(condition("QuotaReserved")));
    unit.setStatus(status);
    return Serialization.unmarshal(Serialization.asJson(unit), QueueUnit.class);
  }

  /** A Queue as an informer gets it, listing one waiting unit. */
  private static Queue queueListing(String unitName) {
    QueueItemDetail item = new QueueItemDetail();
    item.setNamespace("team-a");
    item.setName(unitName);
    item.setPriority(3);
    item.setPosition(1);
    QueueStatus status = new QueueStatus();
    status.setQueueItemDetails(Map.of(QueueStatus.ACTIVE, List.of(item), QueueStatus.BACKOFF, List.of()));
    Queue queue = new Queue();
    queue.getMetadata().setName("nlp");
    queue.setStatus(status);
    return Serialization.unmarshal(Serialization.asJson(queue), Queue.class);
  }

  private static Condition condition(String type) {
    return new ConditionBuilder()
        .withType(type)
        .withStatus("False")
        .withReason("Pending")
        .withMessage("waiting for quota nlp")
        .withLastTransitionTime("2026-12-03T11:00:00Z")
        .build();
  }

  private static String onlyLabelKey(QueueUnit unit) {
    return unit.getMetadata().getLabels().keySet().iterator().next();
  }

  private static String image(QueueUnit unit) {
    return podSpec(unit).getContainers().get(0).getImage();
  }

  private static PodSpec podSpec(QueueUnit unit) {
    return unit.getSpec().getPodSet().get(0).getTemplate().getSpec();
  }
}
