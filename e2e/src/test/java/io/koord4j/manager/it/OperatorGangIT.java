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
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.WellKnown;
import io.koord4j.api.gang.PodGroup;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitPhase;
import io.koord4j.scheduler.KoordScheduler;
import io.koord4j.testing.LocalCluster;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A queued job run for real: admitted by the queue, its pods created by the kind's upstream
 * operator (KubeRay's, Kubeflow's training operator, the MPI Operator; all started by
 * {@code cluster.sh jobs up}), bound by koord-scheduler as one gang and run by KWOK. The user's
 * pod templates name the scheduler, as Koordinator users write them.
 *
 * <p>The scheduler, its nodes and the jobs' pods carry a name unique to this run: the nodes are
 * tainted and labelled from birth, and only these pods tolerate and select them, so no other
 * pod lands there and no other scheduler binds these pods.
 */
class OperatorGangIT extends InProcessManagerBase {
  /** Starts with a letter: a bare id such as 8e9678 would be read from the YAML manifests as a number. */
  private static final String RUN = "r" + UUID.randomUUID().toString().substring(0, 5);
  private static final String SCHEDULER = KoordScheduler.DEFAULT_NAME + "-" + RUN;
  private static final String POOL_KEY = "koord4j.io/operator-gang-it";
  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final String ARGO_WORKFLOW_LABEL = "workflows.argoproj.io/workflow";

  private static KoordScheduler scheduler;
  private static final MeterRegistry schedulerMetrics = new SimpleMeterRegistry();
  private static final List<String> nodes = new ArrayList<>();

  /**
   * A job of three pods of 1 to 1.5 CPUs each, so that a node of 1.5 CPUs holds one member. In a
   * body, {@code %1$s} stands for the kind's pod spec and {@code %2$s} for the placement fields
   * alone, put at the head of each pod spec.
   */
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
        """, "{containers: [{name: pytorch, image: \"pytorch/pytorch:2.5.1\", resources: {requests: {cpu: 1500m}}}]}"),
    /**
     * The MPI Operator's own example (examples/v2beta1/pi/pi.yaml). Its launcher is a batch Job,
     * whose pod KWOK completes after the delay its annotation gives: the program's run time.
     */
    MPIJOB("kubeflow.org/v2beta1", "MPIJob", "training.kubeflow.org/job-name", List.of("launcher:1", "worker:2"), """
        spec:
          slotsPerWorker: 1
          runPolicy:
            cleanPodPolicy: Running
            ttlSecondsAfterFinished: 60
          sshAuthMountPath: /home/mpiuser/.ssh
          mpiReplicaSpecs:
            Launcher:
              replicas: 1
              template:
                metadata:
                  annotations: {pod-complete.stage.kwok.x-k8s.io/delay: 30s}
                spec: {%2$s containers: [{image: "mpioperator/mpi-pi:openmpi", name: mpi-launcher, securityContext: {runAsUser: 1000},
                  command: [mpirun], args: [-n, "2", /home/mpiuser/pi], resources: {limits: {cpu: 1, memory: 1Gi}}}]}
            Worker:
              replicas: 2
              template:
                spec: {%2$s containers: [{image: "mpioperator/mpi-pi:openmpi", name: mpi-worker, securityContext: {runAsUser: 1000},
                  command: [/usr/sbin/sshd], args: [-De, -f, /home/mpiuser/.sshd_config], resources: {limits: {cpu: 1, memory: 1Gi}}}]}
        """, "");

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
      String placement = placement(pool());
      return String.format(body, podSpec.replaceFirst("^\\{", "{" + placement), placement);
    }

    /** Whether the operator finishes the job by itself on KWOK: its pods that end are a batch Job's. */
    boolean finishes() {
      return this == MPIJOB;
    }

    /** Each kind's nodes apart, so that one kind's test cannot use another's free nodes. */
    String pool() {
      return RUN + "-" + name().toLowerCase();
    }
  }

  /**
   * Argo's own loops example (examples/loops.yaml): one step pod per item, created together. A
   * Workflow is one unit charged its {@code koord-queue/min-resources}, not a gang: Argo creates its
   * pods step by step, so koord-scheduler places each as it comes.
   */
  private static final String WORKFLOW = """
      metadata:
        annotations: {koord-queue/min-resources: "cpu: 1"}
      spec:
        entrypoint: loop-example
        templates:
        - name: loop-example
          steps:
          - - name: print-message-loop
              template: print-message
              arguments:
                parameters:
                - name: message
                  value: "{{item}}"
              withItems:
              - hello world
              - goodbye world
        - name: print-message
          inputs:
            parameters:
            - name: message
          container:
            image: busybox
            command: [echo]
            args: ["{{inputs.parameters.message}}"]
      """;

  /**
   * The Spark Operator's own example (examples/spark-pi.yaml). Pod fields go through the roles'
   * pod templates, which the operator hands to spark-submit (without its webhook, the roles' own
   * scheduling fields would not reach the pods).
   */
  private static final String SPARK_PI = """
      spec:
        type: Scala
        mode: cluster
        image: docker.io/library/spark:4.0.1
        imagePullPolicy: IfNotPresent
        mainClass: org.apache.spark.examples.SparkPi
        mainApplicationFile: local:///opt/spark/examples/jars/spark-examples.jar
        arguments:
        - "5000"
        sparkVersion: 4.0.1
        driver:
          labels:
            version: 4.0.0
          cores: 1
          memory: 512m
          serviceAccount: spark-operator-spark
          securityContext:
            capabilities:
              drop:
              - ALL
            runAsGroup: 185
            runAsUser: 185
            runAsNonRoot: true
            allowPrivilegeEscalation: false
            seccompProfile:
              type: RuntimeDefault
        executor:
          labels:
            version: 4.0.0
          instances: 1
          cores: 1
          memory: 512m
          securityContext:
            capabilities:
              drop:
              - ALL
            runAsGroup: 185
            runAsUser: 185
            runAsNonRoot: true
            allowPrivilegeEscalation: false
            seccompProfile:
              type: RuntimeDefault
      """;

  /** Pod spec fields that send a pod to this run's scheduler and to the pool's nodes alone. */
  private static Map<String, Object> placementFields(String pool) {
    return Map.of("schedulerName", SCHEDULER, "nodeSelector", Map.of(POOL_KEY, pool), "tolerations",
        List.of(Map.of("key", POOL_KEY, "operator", "Equal", "value", RUN, "effect", "NoSchedule")));
  }

  /** The placement fields as flow entries, to put at the head of a pod spec in YAML. */
  private static String placement(String pool) {
    String json = Serialization.asJson(placementFields(pool));
    return json.substring(1, json.length() - 1) + ", ";
  }

  @BeforeAll
  static void startOperatorsAndScheduler() {
    LocalCluster.script("jobs", "up");
    scheduler = TestSchedulers.start(client, SCHEDULER, schedulerMetrics);
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
      String leaf = leafQuota(cluster, "6");
      List<String> kindNodes = addNodes(kind.pool(), 3);
      Pod holder = client.resource(holder(cluster, kindNodes.get(2))).create();

      client.resource(QueuedJobs.suspended(job(kind, cluster, leaf))).create();
      QueueUnit unit = await().atMost(WAIT).until(() -> cluster.unit("train"), u -> u != null);
      assertThat(unit.getSpec().getPodSet())
          .extracting(p -> p.getName() + ":" + p.getCount())
          .containsExactlyElementsOf(kind.podSets);

      // Admitted (three empty nodes hold the gang) and started: the operator creates all three
      // pods, but with a CPU of the third node held the nodes hold two.
      await().atMost(WAIT).until(() -> pods(kind, cluster).size() == 3);
      // The two that fit are placed and held at Permit for the third: the gang's decision is made.
      await().atMost(WAIT).until(() -> pods(kind, cluster).stream().anyMatch(OperatorGangIT::isUnschedulable)
          && heldAtPermit() == 2);
      assertThat(pods(kind, cluster)).noneMatch(OperatorGangIT::isBound);

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
      if (kind.finishes()) {
        await().atMost(WAIT).until(() -> QueueUnitPhase.SUCCEED.equals(cluster.phase("train")));
        awaitFreed(cluster, leaf);
      }

      client.resource(job(kind, cluster, leaf)).delete();
      awaitFreed(cluster, leaf);
    }
  }

  /**
   * The step pods, created by Argo's workflow controller once the queue admits the workflow, are
   * bound by koord-scheduler and run on KWOK (which completes only batch Jobs' pods, so they stay
   * running until the workflow is deleted).
   */
  @Test
  void aWorkflowsStepPodsAreCreatedByArgoOnceAdmittedAndPlacedByKoordScheduler() {
    try (TestCluster cluster = new TestCluster(client, "it-gang-workflow")) {
      String leaf = leafQuota(cluster, "2");
      String pool = RUN + "-workflow";
      addNodes(pool, 2);
      GenericKubernetesResource workflow =
          QueuedJobs.of("argoproj.io/v1alpha1", "Workflow", "loops", cluster.namespace, leaf, WORKFLOW);
      // Argo takes these pod spec fields at the workflow's top level, for every step pod.
      spec(workflow).putAll(placementFields(pool));
      client.resource(QueuedJobs.suspended(workflow)).create();
      QueueUnit unit = await().atMost(WAIT).until(() -> cluster.unit("loops"), u -> u != null);
      assertThat(unit.getSpec().getResource()).containsEntry("cpu", new Quantity("1"));

      await().atMost(WAIT).untilAsserted(() -> assertThat(labelled(cluster, ARGO_WORKFLOW_LABEL, "loops"))
          .extracting(OperatorGangIT::describe)
          .hasSize(2)
          .allMatch(pod -> pod.contains(" Running ")));
      assertThat(labelled(cluster, ARGO_WORKFLOW_LABEL, "loops")).allSatisfy(pod -> {
        assertThat(pod.getSpec().getSchedulerName()).isEqualTo(SCHEDULER);
        assertThat(pod.getSpec().getNodeName()).isIn(nodes);
        assertThat(pod.getMetadata().getAnnotations())
            .containsEntry(WellKnown.RELATED_QUEUEUNIT, cluster.namespace + "/loops");
      });
      await().atMost(WAIT).until(() -> "Running".equals(status(workflow).get("phase")));

      client.resource(workflow).delete();
      awaitFreed(cluster, leaf);
    }
  }

  /**
   * The operator's spark-submit creates the driver pod, which koord-scheduler places alone: the
   * gang's minimum is the driver, whose executors it creates itself once it runs. On KWOK the
   * driver does not really run, so no executor ever comes.
   */
  @Test
  void aSparkDriverIsCreatedBySparkSubmitOnceAdmittedAndPlacedByKoordScheduler() {
    try (TestCluster cluster = new TestCluster(client, "it-gang-spark")) {
      String leaf = leafQuota(cluster, "4");
      String pool = RUN + "-spark";
      addNodes(pool, 2);
      // The service account the operator's Helm chart creates for Spark's pods.
      client.serviceAccounts().inNamespace(cluster.namespace)
          .resource(new ServiceAccountBuilder().withNewMetadata().withName("spark-operator-spark").endMetadata().build())
          .create();
      GenericKubernetesResource app = QueuedJobs.of(
          "sparkoperator.k8s.io/v1beta2", "SparkApplication", "spark-pi", cluster.namespace, leaf, SPARK_PI);
      for (String role : List.of("driver", "executor")) {
        // Spark merges the template's first container with the one it builds: it needs one.
        Map<String, Object> template = new HashMap<>(placementFields(pool));
        template.put("containers", List.of(Map.of("name", "spark-kubernetes-" + role)));
        Map<String, Object> roleSpec = Serialization.jsonMapper().convertValue(spec(app).get(role), Map.class);
        roleSpec.put("template", Map.of("spec", template));
        spec(app).put(role, roleSpec);
      }
      client.resource(QueuedJobs.suspended(app)).create();
      QueueUnit unit = await().atMost(WAIT).until(() -> cluster.unit("spark-pi"), u -> u != null);
      assertThat(unit.getSpec().getPodSet()).extracting(p -> p.getName() + ":" + p.getCount() + "/" + p.getMinCount())
          .containsExactly("driver:1/1", "executor:1/0");

      try {
        await().atMost(WAIT).untilAsserted(() -> assertThat(labelled(cluster, "spark-role", "driver"))
            .extracting(OperatorGangIT::describe)
            .singleElement().matches(pod -> pod.contains(" Running ")));
      } catch (ConditionTimeoutException e) {
        // Read once, on failure: what the operator was given and what it made of it.
        throw new AssertionError(
            "stored driver spec " + spec(client.resource(app).get()).get("driver") + ", status " + status(app), e);
      }
      Pod driver = labelled(cluster, "spark-role", "driver").get(0);
      assertThat(driver.getSpec().getSchedulerName()).isEqualTo(SCHEDULER);
      assertThat(driver.getSpec().getNodeName()).isIn(nodes);
      assertThat(driver.getMetadata().getLabels()).containsEntry(WellKnown.POD_GROUP_LABEL, "spark-pi");
      assertThat(driver.getMetadata().getAnnotations())
          .containsEntry(WellKnown.GANG_MIN_AVAILABLE, "1")
          .containsEntry(WellKnown.GANG_TOTAL_NUMBER, "2");
      await().atMost(WAIT).until(() -> status(app).get("applicationState") instanceof Map<?, ?> state
          && "RUNNING".equals(state.get("state")));
      assertThat(labelled(cluster, "spark-role", "executor")).isEmpty();

      client.resource(app).delete();
      awaitFreed(cluster, leaf);
    }
  }

  /** A leaf quota of {@code cpu} CPUs under a top-level quota of as many. */
  private static String leafQuota(TestCluster cluster, String cpu) {
    return cluster.quota("leaf", cluster.quota("top", null, true, cpu, cpu), false, cpu, cpu);
  }

  /** Waits until the quota charges nothing: the job finished or was deleted. */
  private static void awaitFreed(TestCluster cluster, String quota) {
    await().atMost(WAIT).untilAsserted(
        () -> assertThat(cluster.quota(quota).getStatus().getUsed()).containsEntry("cpu", new Quantity("0")));
  }

  /** The job's status as its operator wrote it, empty before it wrote any. */
  private static Map<?, ?> status(GenericKubernetesResource job) {
    return client.resource(job).get().getAdditionalProperties().get("status") instanceof Map<?, ?> status
        ? status : Map.of();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> spec(GenericKubernetesResource job) {
    return (Map<String, Object>) job.getAdditionalProperties().get("spec");
  }

  private static List<Pod> labelled(TestCluster cluster, String label, String value) {
    return client.pods().inNamespace(cluster.namespace).withLabel(label, value).list().getItems();
  }

  /** The job "train" as its user writes it, labelled with its quota. */
  private static GenericKubernetesResource job(Kind kind, TestCluster cluster, String quota) {
    return QueuedJobs.of(kind.apiVersion, kind.kind, "train", cluster.namespace, quota, kind.manifest());
  }

  private static List<Pod> pods(Kind kind, TestCluster cluster) {
    return labelled(cluster, kind.podLabel, "train");
  }

  /**
   * Name, node, phase and scheduling condition, for a failure to show where each pod is; for a pod
   * not yet bound, the node selector and tolerations that decide where it may go.
   */
  private static String describe(Pod pod) {
    return pod.getMetadata().getName() + " on " + pod.getSpec().getNodeName() + " " + pod.getStatus().getPhase()
        + " " + pod.getStatus().getConditions().stream()
            .filter(c -> "PodScheduled".equals(c.getType()))
            .map(c -> c.getStatus() + ": " + c.getMessage())
            .toList()
        + (isBound(pod) ? "" : " nodeSelector " + pod.getSpec().getNodeSelector() + " tolerations "
            + pod.getSpec().getTolerations().stream()
                .map(t -> t.getKey() + "=" + t.getValue() + ":" + t.getEffect())
                .toList());
  }

  /** Pods the scheduler has placed and holds at Permit. */
  private static double heldAtPermit() {
    return schedulerMetrics.get("scheduler_permit_waiting_pods").gauge().value();
  }

  private static boolean isBound(Pod pod) {
    return pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty();
  }

  private static boolean isUnschedulable(Pod pod) {
    return pod.getStatus() != null && pod.getStatus().getConditions().stream()
        .map(PodCondition::getReason)
        .anyMatch("Unschedulable"::equals);
  }

  /** A pod bound to {@code node} that holds two thirds of its 1.5 CPUs. */
  private static Pod holder(TestCluster cluster, String node) {
    return new PodBuilder()
        .withNewMetadata().withName("holder").withNamespace(cluster.namespace).endMetadata()
        .withNewSpec().withNodeName(node)
        .addNewContainer().withName("hold").withImage("busybox")
        .withNewResources().addToRequests("cpu", new Quantity("1")).endResources().endContainer()
        .endSpec().build();
  }

  /** KWOK nodes of 1.5 CPUs in the pool, tainted from creation so only its pods land there. */
  private static List<String> addNodes(String pool, int count) {
    List<String> added = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String name = "gang-" + pool + "-" + nodes.size();
      Map<String, Quantity> capacity =
          Map.of("cpu", new Quantity("1500m"), "memory", new Quantity("8Gi"), "pods", new Quantity("10"));
      Node node = new NodeBuilder()
          .withNewMetadata().withName(name)
          .addToAnnotations("kwok.x-k8s.io/node", "fake")
          .addToLabels(Map.of("kubernetes.io/hostname", name, "type", "kwok", POOL_KEY, pool))
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
