package io.koord4j.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.quota.ElasticQuota;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Kueue's ClusterQueues, cohorts and LocalQueues as the quota tree and queues that keep their guarantees. */
class KueueImportTest {
  private static final String FLAVOR = """
      apiVersion: kueue.x-k8s.io/v1beta2
      kind: ResourceFlavor
      metadata: {name: default-flavor}
      ---
      """;

  @Test
  void aClusterQueueInNoCohortGetsItsNominalQuotaAsMinAndMax() {
    KueueImport.Result result = translate(FLAVOR + """
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ClusterQueue
        metadata: {name: cluster-queue}
        spec:
          namespaceSelector: {}
          resourceGroups:
          - coveredResources: [cpu, memory]
            flavors:
            - name: default-flavor
              resources:
              - {name: cpu, nominalQuota: 9}
              - {name: memory, nominalQuota: 36Gi}
        ---
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: LocalQueue
        metadata: {namespace: default, name: user-queue}
        spec: {clusterQueue: cluster-queue}
        """);

    ElasticQuota quota = quota(result, "cluster-queue");
    assertThat(quota.getSpec().getMin()).isEqualTo(Map.of("cpu", new Quantity("9"), "memory", new Quantity(String.valueOf(36L << 30))));
    assertThat(quota.getSpec().getMax()).isEqualTo(quota.getSpec().getMin());
    assertThat(quota.getMetadata().getLabels())
        .containsEntry(WellKnown.QUOTA_IS_PARENT, "false")
        .doesNotContainKey(WellKnown.QUOTA_PARENT)
        .containsEntry(WellKnown.QUEUE_POLICY_LABEL, "Priority");
    assertThat(quota.getMetadata().getAnnotations()).containsEntry(WellKnown.QUOTA_NAMESPACES, "[\"default\"]");
    Queue queue = object(result, Queue.class, "user-queue");
    assertThat(queue.getMetadata().getNamespace()).isEqualTo(Queue.DEFAULT_NAMESPACE);
    assertThat(queue.getSpec().getQueuePolicy()).isEqualTo("Priority");
    assertThat(result.notExpressed()).isEmpty();
  }

  @Test
  void aCohortBecomesTheParentAndItsMembersBorrowUpToTheirLimitOrTheWholeCohort() {
    KueueImport.Result result = translate(FLAVOR + """
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ClusterQueue
        metadata: {name: team-a-cq}
        spec:
          namespaceSelector: {}
          cohortName: team-ab
          queueingStrategy: StrictFIFO
          resourceGroups:
          - coveredResources: [cpu]
            flavors:
            - name: default-flavor
              resources:
              - {name: cpu, nominalQuota: 9, borrowingLimit: 6, lendingLimit: 0}
        ---
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ClusterQueue
        metadata: {name: team-b-cq}
        spec:
          namespaceSelector: {}
          cohortName: team-ab
          resourceGroups:
          - coveredResources: [cpu]
            flavors:
            - name: default-flavor
              resources:
              - {name: cpu, nominalQuota: 12}
        """);

    ElasticQuota cohort = quota(result, "team-ab");
    assertThat(cohort.getMetadata().getLabels()).containsEntry(WellKnown.QUOTA_IS_PARENT, "true");
    assertThat(cohort.getSpec().getMin()).containsEntry("cpu", new Quantity("21"));
    assertThat(cohort.getSpec().getMax()).containsEntry("cpu", new Quantity("21"));
    ElasticQuota teamA = quota(result, "team-a-cq");
    assertThat(teamA.getMetadata().getLabels())
        .containsEntry(WellKnown.QUOTA_PARENT, "team-ab")
        .containsEntry(WellKnown.QUEUE_POLICY_LABEL, "Block")
        .containsEntry(WellKnown.QUOTA_ALLOW_LENT_RESOURCE, "false");
    assertThat(teamA.getSpec().getMin()).containsEntry("cpu", new Quantity("9"));
    assertThat(teamA.getSpec().getMax()).containsEntry("cpu", new Quantity("15"));
    ElasticQuota teamB = quota(result, "team-b-cq");
    assertThat(teamB.getSpec().getMax()).as("no borrowing limit: the whole cohort").containsEntry("cpu", new Quantity("21"));
    assertThat(teamB.getMetadata().getLabels()).doesNotContainKey(WellKnown.QUOTA_ALLOW_LENT_RESOURCE);
  }

  @Test
  void nestedCohortsSumTheirMembersAndAChildNeverExceedsItsParentsMax() {
    KueueImport.Result result = translate("""
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: Cohort
        metadata: {name: org}
        spec:
          resourceGroups:
          - coveredResources: [nvidia.com/gpu]
            flavors:
            - name: a100
              resources:
              - {name: nvidia.com/gpu, nominalQuota: 4}
        ---
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: Cohort
        metadata: {name: research}
        spec:
          parentName: org
          resourceGroups:
          - coveredResources: [nvidia.com/gpu]
            flavors:
            - name: a100
              resources:
              - {name: nvidia.com/gpu, nominalQuota: 0, borrowingLimit: 2}
        ---
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ClusterQueue
        metadata: {name: nlp}
        spec:
          namespaceSelector: {}
          cohortName: research
          resourceGroups:
          - coveredResources: [nvidia.com/gpu]
            flavors:
            - name: a100
              resources:
              - {name: nvidia.com/gpu, nominalQuota: 6}
            - name: h100
              resources:
              - {name: nvidia.com/gpu, nominalQuota: 2}
        """);

    assertThat(quota(result, "org").getSpec().getMin()).containsEntry("nvidia.com/gpu", new Quantity("12"));
    ElasticQuota research = quota(result, "research");
    assertThat(research.getMetadata().getLabels()).containsEntry(WellKnown.QUOTA_PARENT, "org");
    assertThat(research.getSpec().getMin()).containsEntry("nvidia.com/gpu", new Quantity("8"));
    assertThat(research.getSpec().getMax()).containsEntry("nvidia.com/gpu", new Quantity("10"));
    ElasticQuota nlp = quota(result, "nlp");
    assertThat(nlp.getSpec().getMin()).as("both flavors summed").containsEntry("nvidia.com/gpu", new Quantity("8"));
    assertThat(nlp.getSpec().getMax()).as("bounded by its cohort's max").containsEntry("nvidia.com/gpu", new Quantity("10"));
    assertThat(result.notExpressed()).singleElement().asString()
        .contains("ClusterQueue nlp").contains("nvidia.com/gpu").contains("[a100, h100]");
  }

  @Test
  void whatHasNoEquivalentIsListed() {
    KueueImport.Result result = translate("""
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ResourceFlavor
        metadata: {name: spot}
        spec:
          nodeLabels: {instance-type: spot}
        ---
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: WorkloadPriorityClass
        metadata: {name: sample-priority}
        value: 10000
        ---
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ClusterQueue
        metadata: {name: cq}
        spec:
          cohortName: shared
          preemption: {reclaimWithinCohort: Any}
          resourceGroups:
          - coveredResources: [cpu]
            flavors:
            - name: spot
              resources:
              - {name: cpu, nominalQuota: 4, lendingLimit: 2}
        """);

    assertThat(result.notExpressed()).hasSize(5).anySatisfy(line -> assertThat(line).contains("ResourceFlavor spot: spec.nodeLabels"))
        .anySatisfy(line -> assertThat(line).contains("WorkloadPriorityClass sample-priority (value 10000)"))
        .anySatisfy(line -> assertThat(line).contains("ClusterQueue cq: it has no namespaceSelector"))
        .anySatisfy(line -> assertThat(line).contains("ClusterQueue cq: spec.preemption"))
        .anySatisfy(line -> assertThat(line).contains("ClusterQueue cq: lendingLimit {cpu=2}"));
    assertThat(quota(result, "shared").getSpec().getMin()).as("a cohort without an object of its own").containsEntry("cpu", new Quantity("4"));
  }

  @Test
  void malformedInputIsRefusedNamingTheObjectAndField() {
    assertThatThrownBy(() -> translate("""
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ClusterQueue
        metadata: {name: cq}
        spec:
          resourceGroups:
          - flavors:
            - name: f
              resources:
              - {name: cpu, nominalQuota: lots}
        """)).hasMessageContaining("ClusterQueue cq: flavor f resource cpu nominalQuota").hasMessageContaining("lots");
    assertThatThrownBy(() -> translate("""
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: Cohort
        metadata: {name: a}
        spec: {parentName: b}
        ---
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: Cohort
        metadata: {name: b}
        spec: {parentName: a}
        """)).hasMessageContaining("spec.parentName forms a cycle");
    assertThatThrownBy(() -> translate("""
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: LocalQueue
        metadata: {namespace: ns, name: lq}
        spec: {}
        """)).hasMessageContaining("LocalQueue lq: spec.clusterQueue is required");
  }

  private static KueueImport.Result translate(String yaml) {
    return KueueImport.translate(KueueImport.parse(yaml), "koordinator-system");
  }

  private static ElasticQuota quota(KueueImport.Result result, String name) {
    return object(result, ElasticQuota.class, name);
  }

  private static <T extends HasMetadata> T object(KueueImport.Result result, Class<T> kind, String name) {
    return result.objects().stream().filter(kind::isInstance).map(kind::cast)
        .filter(o -> o.getMetadata().getName().equals(name)).findFirst().orElseThrow(() -> new AssertionError(name + " not produced"));
  }
}
