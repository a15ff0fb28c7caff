package io.koord4j.manager.admission;

import io.koord4j.quota.kube.QuotaResolver;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import io.koord4j.api.kueue.PodSet;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueSpec;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitSpec;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.queue.core.AdmissionCore;
import io.koord4j.queue.core.AdmissionPass;
import io.koord4j.queue.core.Backoff;
import io.koord4j.queue.core.QueueConfig;
import io.koord4j.queue.core.QueuePolicy;
import io.koord4j.queue.core.UnitSpec;
import io.koord4j.queue.core.WaitReason;
import io.koord4j.quota.QuotaSpec;
import io.koord4j.quota.ResourceVector;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Queues and QueueUnits as the admission core reads them, and the quota a unit uses. */
class ClusterTranslationTest {

  @Test
  void readsQueuePolicyPriorityFlagsAndBackoff() {
    Queue queue = new Queue();
    queue.setMetadata(
        new ObjectMetaBuilder()
            .withName("batch")
            .addToAnnotations(WellKnown.QUEUE_ARGS, "podInitialBackoffSeconds: 5\npodMaxBackoffSeconds: 60\n")
            .addToAnnotations("kube-queue/enable-queueunit-preemption", "true")
            .build());
    QueueSpec spec = new QueueSpec();
    spec.setQueuePolicy("Block");
    spec.setPriority(50);
    queue.setSpec(spec);

    QueueConfig config = QueueConfigs.from(queue);

    assertThat(config.policy()).isEqualTo(QueuePolicy.BLOCK);
    assertThat(config.priority()).isEqualTo(50);
    assertThat(config.preemptionEnabled()).isTrue();
    assertThat(config.waitForPodsRunning()).isFalse();
    assertThat(config.backoff()).isEqualTo(new Backoff(Duration.ofSeconds(5), Duration.ofSeconds(60)));
  }

  @Test
  void aUnitUsesItsQuotaLabelElseTheQuotaOfItsQueueElseItsNamespacesQuota() {
    Map<String, ElasticQuota> quotas =
        Map.of(
            "gpu", quota("gpu", Map.of()),
            "team-a", quota("team-a", Map.of()),
            "bound", quota("bound", Map.of(WellKnown.QUOTA_NAMESPACES, "[\"team-b\"]")));

    assertThat(QuotaResolver.resolve(unit("team-a", "gpu", Map.of(WellKnown.QUOTA_NAME, "x")), quotas))
        .isEqualTo("x");
    assertThat(QuotaResolver.resolve(unit("team-a", "gpu", Map.of()), quotas)).isEqualTo("gpu");
    assertThat(QuotaResolver.resolve(unit("team-a", "other", Map.of()), quotas)).isEqualTo("team-a");
    assertThat(QuotaResolver.resolve(unit("team-b", "other", Map.of()), quotas)).isEqualTo("bound");
    assertThat(QuotaResolver.resolve(unit("team-c", "other", Map.of()), quotas))
        .isEqualTo(WellKnown.DEFAULT_QUOTA);
  }

  @Test
  void theFiguresTheManagerPublishesOnAQuotaDoNotChangeItForAdmission() {
    ElasticQuota before = quota("team", Map.of(WellKnown.QUOTA_NAMESPACES, "[\"a\"]"));
    ElasticQuota published = quota("team", Map.of(WellKnown.QUOTA_NAMESPACES, "[\"a\"]",
        WellKnown.QUOTA_RUNTIME, "{\"cpu\":\"4\"}", WellKnown.QUOTA_REQUEST, "{\"cpu\":\"6\"}"));
    ElasticQuota rebound = quota("team", Map.of(WellKnown.QUOTA_NAMESPACES, "[\"b\"]"));
    ElasticQuota shared = quota("team", Map.of(WellKnown.QUOTA_NAMESPACES, "[\"a\"]",
        WellKnown.QUOTA_SHARED_WEIGHT, "{\"cpu\":\"2\"}"));

    assertThat(QuotaResolver.sameForAdmission(before, published)).isTrue();
    assertThat(QuotaResolver.sameForAdmission(before, rebound)).isFalse();
    assertThat(QuotaResolver.sameForAdmission(before, shared)).isFalse();
  }

  @Test
  void aUnitsSpecCarriesItsQueuePriorityArrivalAndTotalRequest() {
    QueueUnit unit = unit("ns", "gpu", Map.of());
    unit.getMetadata().setCreationTimestamp("2026-01-02T03:04:05Z");
    unit.getSpec().setPriority(7);
    unit.getSpec().setResource(Map.of("cpu", new Quantity("6")));

    var spec = UnitSpecs.from(unit, Map.of(), Map.of(), 0);

    assertThat(spec.id()).isEqualTo("ns/job");
    assertThat(spec.queue()).isEqualTo("ns/gpu");
    assertThat(spec.priority()).isEqualTo(7);
    assertThat(spec.arrival()).hasToString("2026-01-02T03:04:05Z");
    assertThat(spec.request().get("cpu")).isEqualTo(6000);
  }

  @Test
  void aSucceededPodItsJobDoesNotReplaceIsNoLongerCharged() {
    QueueUnit unit = unitOfPods(4, "8");
    unit.getMetadata().setAnnotations(Map.of(WellKnown.SUCCEEDED_PODS_REPLACED, "1"));

    assertThat(UnitSpecs.from(unit, Map.of(), Map.of(), 1).request().get("cpu")).as("replaced").isEqualTo(8000);
    assertThat(UnitSpecs.from(unit, Map.of(), Map.of(), 2).request().get("cpu")).isEqualTo(6000);
    assertThat(UnitSpecs.from(unit, Map.of(), Map.of(), 9).request().isZero()).isTrue();
  }

  @Test
  void withoutTheReplacedCountSucceededPodsStayChargedUntilTheJobEnds() {
    QueueUnit unnamed = unitOfPods(4, "8");
    QueueUnit malformed = unitOfPods(4, "8");
    malformed.getMetadata().setAnnotations(Map.of(WellKnown.SUCCEEDED_PODS_REPLACED, "-1"));
    QueueUnit twoPodSets = unitOfPods(4, "8");
    twoPodSets.getMetadata().setAnnotations(Map.of(WellKnown.SUCCEEDED_PODS_REPLACED, "0"));
    twoPodSets.getSpec().setPodSet(List.of(podSet(2), podSet(2)));

    for (QueueUnit unit : List.of(unnamed, malformed, twoPodSets)) {
      assertThat(UnitSpecs.from(unit, Map.of(), Map.of(), 3).request().get("cpu")).isEqualTo(8000);
    }
  }

  private static QueueUnit unitOfPods(int pods, String cpu) {
    QueueUnit unit = unit("ns", "gpu", Map.of());
    unit.getSpec().setResource(Map.of("cpu", new Quantity(cpu)));
    unit.getSpec().setPodSet(List.of(podSet(pods)));
    return unit;
  }

  private static PodSet podSet(int count) {
    PodSet podSet = new PodSet();
    podSet.setName("main");
    podSet.setCount(count);
    return podSet;
  }

  /**
   * Queue is namespaced: a Block queue {@code default} in namespace a and a Priority queue {@code
   * default} in namespace b are two queues. In a, a small unit waits behind a head that does not
   * fit; in b it passes.
   */
  @Test
  void sameNamedQueuesOfTwoNamespacesAreTwoQueues() {
    AdmissionCore core = new AdmissionCore(new SplittableRandom(1));
    core.setClusterTotal(ResourceVector.of("cpu", 8000));
    core.upsertQuota(QuotaSpec.leaf("a", "", ResourceVector.of("cpu", 4000), ResourceVector.of("cpu", 4000)));
    core.upsertQuota(QuotaSpec.leaf("b", "", ResourceVector.of("cpu", 4000), ResourceVector.of("cpu", 4000)));
    List<Queue> queues = List.of(queue("a", "default", "Block"), queue("b", "default", "Priority"));
    queues.forEach(queue -> core.upsertQueue(QueueConfigs.from(queue)));
    for (String namespace : List.of("a", "b")) {
      core.upsertUnit(sized(namespace, "big", 5, queues));
      core.upsertUnit(sized(namespace, "small", 1, queues));
    }

    AdmissionPass pass = core.pass(Instant.parse("2026-01-01T00:00:10Z"));

    assertThat(pass.admitted()).containsExactly("b/small");
    assertThat(pass.waiting().get("a/small").reason().message()).contains("a/big");
  }

  private static UnitSpec sized(String namespace, String name, int cpus, List<Queue> queues) {
    QueueUnit unit = unit(namespace, "default", Map.of());
    unit.getMetadata().setName(name);
    unit.getMetadata().setCreationTimestamp(name.equals("big") ? "2026-01-01T00:00:00Z" : "2026-01-01T00:00:01Z");
    unit.getSpec().setResource(Map.of("cpu", new Quantity(Integer.toString(cpus))));
    return UnitSpecs.from(unit, Map.of(namespace, boundQuota(namespace, namespace)), byKey(queues), 0);
  }

  @Test
  void aUnitWaitsInItsNamespacesQueueElseInTheSharedOneOfThatName() {
    Map<String, Queue> queues =
        byKey(List.of(queue("a", "default", null), queue(Queue.DEFAULT_NAMESPACE, "default", null),
            queue(Queue.DEFAULT_NAMESPACE, "gpu", null)));
    Map<String, ElasticQuota> quotas = Map.of("gpu", boundQuota("gpu", "a"));

    assertThat(UnitSpecs.from(unit("a", "default", Map.of()), quotas, queues, 0).queue()).isEqualTo("a/default");
    assertThat(UnitSpecs.from(unit("b", "default", Map.of()), quotas, queues, 0).queue())
        .isEqualTo("koord-queue/default");
    assertThat(UnitSpecs.from(unit("a", "gpu", Map.of()), quotas, queues, 0).queue()).isEqualTo("koord-queue/gpu");
    assertThat(UnitSpecs.from(unit("a", "none", Map.of()), quotas, queues, 0).queue()).isEqualTo("a/none");
  }

  @Test
  void theSharedQueueOfAQuotaServesOnlyTheNamespacesBoundToIt() {
    Map<String, Queue> queues =
        byKey(List.of(queue(Queue.DEFAULT_NAMESPACE, "gpu", null), queue(Queue.DEFAULT_NAMESPACE, "imported", null)));
    Map<String, ElasticQuota> quotas = Map.of("gpu", boundQuota("gpu", "a"));

    assertThat(UnitSpecs.from(unit("a", "gpu", Map.of()), quotas, queues, 0).queue()).isEqualTo("koord-queue/gpu");
    assertThat(UnitSpecs.from(unit("b", "gpu", Map.of()), quotas, queues, 0).queue())
        .as("another namespace's quota's queue").isEqualTo("b/gpu");
    assertThat(UnitSpecs.from(unit("b", "imported", Map.of()), quotas, queues, 0).queue())
        .as("a shared Queue that is no quota's").isEqualTo("koord-queue/imported");
  }

  @Test
  void aUnitWaitsForAQuotaItsNamespaceIsNotBoundToAndIsNoDemandOfIt() {
    Map<String, ElasticQuota> quotas = Map.of("team-b", boundQuota("team-b", "team-b"));
    QueueUnit stranger = unit("team-a", "team-b", Map.of(WellKnown.QUOTA_NAME, "team-b"));
    stranger.getSpec().setResource(Map.of("cpu", new Quantity("4")));
    QueueUnit own = unit("team-b", "team-b", Map.of(WellKnown.QUOTA_NAME, "team-b"));

    UnitSpec refused = UnitSpecs.from(stranger, quotas, Map.of(), 0);

    assertThat(refused.quotaRefusal()).isEqualTo("metadata.labels[" + WellKnown.QUOTA_NAME + "]: quota"
        + " \"team-b\" is not bound to namespace \"team-a\" (it lives in \"koordinator-system\" and lists"
        + " only \"team-b\")");
    assertThat(UnitSpecs.from(own, quotas, Map.of(), 0).mayChargeQuota()).isTrue();
    AdmissionCore core = new AdmissionCore(new SplittableRandom(1));
    core.setClusterTotal(ResourceVector.of("cpu", 8000));
    core.upsertQuota(QuotaSpec.leaf("team-b", "", ResourceVector.of("cpu", 8000), ResourceVector.of("cpu", 8000)));
    core.upsertQueue(QueueConfigs.from(queue("team-a", "team-b", null)));
    core.upsertUnit(refused);

    AdmissionPass pass = core.pass(Instant.parse("2026-01-01T00:00:10Z"));

    assertThat(pass.admitted()).isEmpty();
    assertThat(pass.waiting().get("team-a/job").reason()).isEqualTo(new WaitReason.QuotaNotBound(refused.quotaRefusal()));
    assertThat(core.request("team-b").isZero()).as("team-b's demand").isTrue();
  }

  private static Map<String, Queue> byKey(List<Queue> queues) {
    return queues.stream().collect(Collectors.toMap(QueueKeys::of, queue -> queue));
  }

  static Queue queue(String namespace, String name, String policy) {
    Queue queue = new Queue();
    queue.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
    queue.setSpec(new QueueSpec());
    queue.getSpec().setQueuePolicy(policy);
    return queue;
  }

  /** A quota kept with Koordinator's, in koordinator-system, bound to {@code namespace} by its annotation. */
  static ElasticQuota boundQuota(String name, String namespace) {
    ElasticQuota quota = quota(name, Map.of(WellKnown.QUOTA_NAMESPACES, "[\"" + namespace + "\"]"));
    quota.getMetadata().setNamespace("koordinator-system");
    return quota;
  }

  static ElasticQuota quota(String name, Map<String, String> annotations) {
    ElasticQuota quota = new ElasticQuota();
    quota.setMetadata(new ObjectMetaBuilder().withName(name).withAnnotations(annotations).build());
    return quota;
  }

  static QueueUnit unit(String namespace, String queue, Map<String, String> labels) {
    QueueUnit unit = new QueueUnit();
    unit.setMetadata(
        new ObjectMetaBuilder().withName("job").withNamespace(namespace).withLabels(labels).build());
    QueueUnitSpec spec = new QueueUnitSpec();
    spec.setQueue(queue);
    unit.setSpec(spec);
    return unit;
  }
}
