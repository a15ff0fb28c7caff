package io.koord4j.manager.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import io.koord4j.api.gang.PodGroup;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.scheduler.KoordScheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A queued job run for real: admitted by the queue, its pods created by the kind's upstream
 * operator (KubeRay's, Kubeflow's training operator; both started by {@code cluster.sh jobs up}),
 * bound by koord-scheduler as one gang and run by KWOK. The user's pod templates name the
 * scheduler, as Koordinator users write them.
 *
 * <p>The scheduler, its nodes and the jobs' pods carry a name unique to this run: the nodes are
 * tainted and labelled from birth, and only these pods tolerate and select them, so no other
 * pod lands there and no other scheduler binds these pods.
 */
class OperatorGangIT extends InProcessManagerBase {
  private static final String RUN = UUID.randomUUID().toString().substring(0, 6);
  private static final String SCHEDULER = KoordScheduler.DEFAULT_NAME + "-" + RUN;
  private static final String POOL_KEY = "koord4j.io/operator-gang-it";
  private static final Duration WAIT = Duration.ofSeconds(120);

  private static KoordScheduler scheduler;
  private static final List<String> nodes = new ArrayList<>();

  /** A job of three pods of 1500m CPU each, so that a 2-CPU node holds one member. */
  enum Kind {
    RAYCLUSTER("ray.io/v1", "RayCluster", "ray.io/cluster", List.of("head:1", "workers:2"), """
        spec:
          headGroupSpec:
            rayStartParams: {}
            template: {spec: %1$s}
          workerGroupSpecs:
            - groupName: workers
              replicas: 2
              minReplicas: 2
              maxReplicas: 2
              rayStartParams: {}
              template: {spec: %1$s}
        """, "{containers: [{name: ray, image: \"rayproject/ray:2.46.0\", resources: {requests: {cpu: 1500m}}}]}"),
    PYTORCHJOB("kubeflow.org/v1", "PyTorchJob", "training.kubeflow.org/job-name", List.of("master:1", "worker:2"), """
        spec:
          pytorchReplicaSpecs:
            Master: {replicas: 1, restartPolicy: OnFailure, template: {spec: %1$s}}
            Worker: {replicas: 2, restartPolicy: OnFailure, template: {spec: %1$s}}
        """, "{containers: [{name: pytorch, image: \"pytorch/pytorch:2.5.1\", resources: {requests: {cpu: 1500m}}}]}");

    final String apiVersion;
    final String kind;
    /** The label the operator puts on the job's pods, valued with the job's name. */
    final String podLabel;
    final List<String> podSets;
    final String body;
    final String podSpec;

    Kind(String apiVersion, String kind, String podLabel, List<String> podSets, String body, String podSpec) {
      this.apiVersion = apiVersion;
      this.kind = kind;
      this.podLabel = podLabel;
      this.podSets = podSets;
      this.body = body;
      this.podSpec = podSpec;
    }

    /** The manifest, every pod template naming this run's scheduler and nodes. */
    String manifest() {
      String spec = podSpec.replaceFirst("^\\{", String.format(
          "{schedulerName: %s, nodeSelector: {%s: \"%s\"}, tolerations: [{key: %s, operator: Equal, value: \"%s\", effect: NoSchedule}], ",
          SCHEDULER, POOL_KEY, pool(), POOL_KEY, RUN));
      return String.format(body, spec);
    }

    /** Each kind's nodes apart, so that one kind's test cannot use another's free nodes. */
    String pool() {
      return RUN + "-" + name().toLowerCase();
    }
  }

  @BeforeAll
  static void startScheduler() {
    scheduler = TestSchedulers.start(client, SCHEDULER);
  }

  @AfterAll
  static void stopScheduler() {
    if (scheduler != null) {
      scheduler.close();
    }
    nodes.forEach(name -> client.nodes().withName(name).delete());
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void anAdmittedJobsPodsAreBoundTogetherOnlyOnceTheWholeGangFits(Kind kind) {
    try (TestCluster cluster = new TestCluster(client, "it-gang-" + kind.name().toLowerCase())) {
      String top = cluster.quota("top", null, true, "6", "6");
      String leaf = cluster.quota("leaf", top, false, "6", "6");
      List<String> kindNodes = addNodes(kind, 3);
      Pod holder = client.resource(holder(cluster, kindNodes.get(2))).create();

      client.resource(QueuedJobs.suspended(job(kind, cluster, leaf))).create();
      QueueUnit unit = await().atMost(WAIT).until(() -> cluster.unit("train"), u -> u != null);
      assertThat(unit.getSpec().getPodSet())
          .extracting(p -> p.getName() + ":" + p.getCount())
          .containsExactlyElementsOf(kind.podSets);

      // Admitted (three empty nodes hold the gang) and started: the operator creates all three
      // pods, but with a CPU of the third node held the nodes hold two.
      await().atMost(WAIT).until(() -> pods(kind, cluster).size() == 3);
      await().atMost(WAIT).until(() -> pods(kind, cluster).stream().anyMatch(OperatorGangIT::isUnschedulable));
      await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(10))
          .until(() -> pods(kind, cluster).stream().noneMatch(OperatorGangIT::isBound));

      client.resource(holder).withGracePeriod(0).delete();

      await().atMost(WAIT).untilAsserted(() -> assertThat(pods(kind, cluster))
          .extracting(OperatorGangIT::describe)
          .hasSize(3)
          .allMatch(pod -> pod.contains(" Running ")));
      List<Pod> pods = pods(kind, cluster);
      assertThat(pods).allSatisfy(pod -> {
        assertThat(pod.getSpec().getSchedulerName()).isEqualTo(SCHEDULER);
        assertThat(pod.getMetadata().getLabels()).containsEntry(WellKnown.POD_GROUP_LABEL, "train");
        assertThat(pod.getMetadata().getAnnotations())
            .containsEntry(WellKnown.GANG_NAME, "train")
            .containsEntry(WellKnown.GANG_TOTAL_NUMBER, "3");
      });
      assertThat(pods).extracting(pod -> pod.getSpec().getNodeName()).doesNotHaveDuplicates()
          .allMatch(nodes::contains);
      PodGroup group = client.resources(PodGroup.class).inNamespace(cluster.namespace).withName("train").get();
      assertThat(group.getSpec().getMinMember()).isEqualTo(3);

      client.resource(job(kind, cluster, leaf)).delete();
      await().atMost(WAIT).untilAsserted(
          () -> assertThat(cluster.quota(leaf).getStatus().getUsed()).containsEntry("cpu", new Quantity("0")));
    }
  }

  /** The job "train" as its user writes it, labelled with its quota. */
  private static GenericKubernetesResource job(Kind kind, TestCluster cluster, String quota) {
    return QueuedJobs.of(kind.apiVersion, kind.kind, "train", cluster.namespace, quota, kind.manifest());
  }

  private static List<Pod> pods(Kind kind, TestCluster cluster) {
    return client.pods().inNamespace(cluster.namespace).withLabel(kind.podLabel, "train").list().getItems();
  }

  /** Name, node, phase and scheduling condition, for a failure to show where each pod is. */
  private static String describe(Pod pod) {
    return pod.getMetadata().getName() + " on " + pod.getSpec().getNodeName() + " " + pod.getStatus().getPhase()
        + " " + pod.getStatus().getConditions().stream()
            .filter(c -> "PodScheduled".equals(c.getType()))
            .map(c -> c.getStatus() + ": " + c.getMessage())
            .toList();
  }

  private static boolean isBound(Pod pod) {
    return pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty();
  }

  private static boolean isUnschedulable(Pod pod) {
    return pod.getStatus() != null && pod.getStatus().getConditions().stream()
        .map(PodCondition::getReason)
        .anyMatch("Unschedulable"::equals);
  }

  /** A pod bound to {@code node} that holds one of its two CPUs. */
  private static Pod holder(TestCluster cluster, String node) {
    return new PodBuilder()
        .withNewMetadata().withName("holder").withNamespace(cluster.namespace).endMetadata()
        .withNewSpec().withNodeName(node)
        .addNewContainer().withName("hold").withImage("busybox")
        .withNewResources().addToRequests("cpu", new Quantity("1")).endResources().endContainer()
        .endSpec().build();
  }

  /** KWOK nodes of 2 CPUs in the kind's pool, tainted from creation so only its pods land there. */
  private static List<String> addNodes(Kind kind, int count) {
    List<String> added = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String name = "gang-" + RUN + "-" + kind.name().toLowerCase() + "-" + nodes.size();
      Map<String, Quantity> capacity =
          Map.of("cpu", new Quantity("2"), "memory", new Quantity("8Gi"), "pods", new Quantity("10"));
      Node node = new NodeBuilder()
          .withNewMetadata().withName(name)
          .addToAnnotations("kwok.x-k8s.io/node", "fake")
          .addToLabels(Map.of("kubernetes.io/hostname", name, "type", "kwok", POOL_KEY, kind.pool()))
          .endMetadata()
          .withNewSpec().addNewTaint().withKey(POOL_KEY).withValue(RUN).withEffect("NoSchedule").endTaint().endSpec()
          .withNewStatus().withCapacity(capacity).withAllocatable(capacity).endStatus()
          .build();
      client.resource(node).create();
      nodes.add(name);
      added.add(name);
    }
    return added;
  }
}
