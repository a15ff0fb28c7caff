package io.koord4j.manager.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitConditions;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.migration.KueueImport;
import io.koord4j.testing.LocalCluster;
import io.koord4j.testing.TestJobs;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code kubectl koord4j import kueue} on a team's Kueue set-up applied to the local cluster as
 * Kueue's docs write it (a flavor, two ClusterQueues sharing a cohort, a LocalQueue of the same
 * name in each team's namespace): its output applied as is, the jobs written for Kueue keep their
 * label and get the same guarantees: nominal quota, borrowing from the cohort up to the limit.
 */
class KubectlImportKueueIT extends InProcessManagerBase {
  /** How long KWOK lets a pod run before it succeeds. */
  private static final String RUN_TIME_ANNOTATION = "pod-complete.stage.kwok.x-k8s.io/delay";
  private static final Duration WAIT = Duration.ofMinutes(2);
  private static final String SUFFIX = Integer.toString(ThreadLocalRandom.current().nextInt(1 << 20), 36);
  private static final String COHORT = "team-ab-" + SUFFIX;
  private static final String TEAM_A = "team-a-" + SUFFIX;
  private static final String TEAM_B = "team-b-" + SUFFIX;
  private static final String LOCAL_QUEUE = "user-queue-" + SUFFIX;
  private static final String FLAVOR = "default-flavor-" + SUFFIX;

  private static KubectlPlugin plugin;
  /** The teams' namespaces, each with its LocalQueue. */
  private static String namespaceA;
  private static String namespaceB;
  private static final List<HasMetadata> created = new ArrayList<>();

  @BeforeAll
  static void kueueSetUp() throws IOException {
    LocalCluster.script("kueue", "crds");
    plugin = KubectlPlugin.install("kubectl-koord4j-import-transcript.txt");
    namespaceA = LocalCluster.createNamespace(client, "kueue-import-a");
    namespaceB = LocalCluster.createNamespace(client, "kueue-import-b");
    for (GenericKubernetesResource object : KueueImport.parse(kueueManifests())) {
      created.add(client.resource(object).create());
    }
  }

  @AfterAll
  static void cleanUp() {
    for (String namespace : new String[] {namespaceA, namespaceB}) {
      if (namespace != null) {
        client.namespaces().withName(namespace).delete();
      }
    }
    created.forEach(object -> client.resource(object).delete());
    for (String quota : List.of(TEAM_A, TEAM_B, COHORT)) {
      client.resources(ElasticQuota.class).inNamespace("koordinator-system").withName(quota).delete();
      client.resources(Queue.class).inNamespace(Queue.DEFAULT_NAMESPACE).withName(quota).delete();
    }
    client.resources(Queue.class).inNamespace(Queue.DEFAULT_NAMESPACE).withName(LOCAL_QUEUE).delete();
  }

  @Test
  void theImportedTreeKeepsNominalQuotaAndBorrowingLimitsForJobsWrittenForKueue() {
    KubectlPlugin.Result imported = plugin.run("import", "kueue");

    assertThat(imported.exit()).as(imported.err()).isZero();
    assertThat(imported.err()).contains("not expressed: ResourceFlavor " + FLAVOR + ": spec.nodeLabels");
    List<HasMetadata> ours = KueueImport.parse(imported.out()).stream()
        .filter(object -> object.getMetadata().getName().endsWith(SUFFIX))
        .map(object -> (HasMetadata) client.resource(object).serverSideApply())
        .toList();
    assertThat(ours).extracting(o -> o.getKind() + "/" + o.getMetadata().getName()).containsExactlyInAnyOrder(
        "ElasticQuota/" + COHORT, "ElasticQuota/" + TEAM_A, "ElasticQuota/" + TEAM_B, "Queue/" + LOCAL_QUEUE);
    ElasticQuota teamA = client.resources(ElasticQuota.class).inNamespace("koordinator-system").withName(TEAM_A).get();
    assertThat(teamA.getMetadata().getLabels()).containsEntry(WellKnown.QUOTA_PARENT, COHORT)
        .containsEntry(WellKnown.QUEUE_POLICY_LABEL, "Block");
    assertThat(teamA.getSpec().getMin()).containsEntry("cpu", new Quantity("4"));
    assertThat(teamA.getSpec().getMax()).containsEntry("cpu", new Quantity("6"));

    // Team A borrows what team B does not use, up to its borrowing limit of 2.
    kueueJob(namespaceA, "borrows", "5");
    await("team A borrows 1 cpu from the cohort").atMost(WAIT).until(() -> resumed(namespaceA, "borrows"));
    kueueJob(namespaceA, "over-limit", "2");
    Condition waiting = await("beyond the borrowing limit, the job waits").atMost(WAIT)
        .until(() -> condition(namespaceA, "over-limit"), c -> c != null && "False".equals(c.getStatus()));
    assertThat(waiting.getMessage()).contains(TEAM_A);
    // Team B still gets what remains of its nominal quota.
    kueueJob(namespaceB, "nominal", "3");
    await("team B runs within its nominal quota").atMost(WAIT).until(() -> resumed(namespaceB, "nominal"));
    assertThat(resumed(namespaceA, "over-limit")).isFalse();
  }

  /** Kueue's objects, as its docs write them. */
  private static String kueueManifests() {
    return """
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ResourceFlavor
        metadata:
          name: %s
        spec:
          nodeLabels:
            kubernetes.io/os: linux
        """.formatted(FLAVOR)
        + clusterQueue(TEAM_A, "StrictFIFO", ", borrowingLimit: 2") + clusterQueue(TEAM_B, "BestEffortFIFO", "")
        + localQueue(namespaceA, TEAM_A) + localQueue(namespaceB, TEAM_B);
  }

  /** A ClusterQueue of the cohort with 4 CPUs and 16Gi of the flavor. */
  private static String clusterQueue(String name, String queueingStrategy, String cpuLimit) {
    return """
        ---
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ClusterQueue
        metadata:
          name: %s
        spec:
          namespaceSelector: {}
          cohortName: %s
          queueingStrategy: %s
          resourceGroups:
          - coveredResources: ["cpu", "memory"]
            flavors:
            - name: %s
              resources:
              - {name: "cpu", nominalQuota: 4%s}
              - {name: "memory", nominalQuota: 16Gi}
        """.formatted(name, COHORT, queueingStrategy, FLAVOR, cpuLimit);
  }

  private static String localQueue(String namespace, String clusterQueue) {
    return """
        ---
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: LocalQueue
        metadata:
          namespace: %s
          name: %s
        spec:
          clusterQueue: %s
        """.formatted(namespace, LOCAL_QUEUE, clusterQueue);
  }

  /** A one-pod Job as Kueue's docs write it: the queue-name label, created suspended. */
  /** A job whose pod runs for 10 minutes, so that it holds its quota while the test looks. */
  private static void kueueJob(String namespace, String name, String cpu) {
    client.resource(TestJobs.job(namespace, name, cpu)
        .editMetadata().addToLabels(WellKnown.KUEUE_QUEUE_NAME, LOCAL_QUEUE).endMetadata()
        .editSpec().withSuspend(true)
        .editTemplate().editOrNewMetadata().addToAnnotations(RUN_TIME_ANNOTATION, "600s").endMetadata().endTemplate()
        .endSpec().build()).create();
  }

  private static boolean resumed(String namespace, String job) {
    Job current = client.batch().v1().jobs().inNamespace(namespace).withName(job).get();
    return current != null && Boolean.FALSE.equals(current.getSpec().getSuspend());
  }

  private static Condition condition(String namespace, String unit) {
    QueueUnit current = client.resources(QueueUnit.class).inNamespace(namespace).withName(unit).get();
    return current == null || current.getStatus() == null || current.getStatus().getConditions() == null ? null
        : current.getStatus().getConditions().stream()
            .filter(c -> QueueUnitConditions.QUOTA_RESERVED.equals(c.getType())).findFirst().orElse(null);
  }
}
