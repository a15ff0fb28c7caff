package io.koord4j.manager.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.koord4j.api.WellKnown;
import io.koord4j.api.kueue.PodSet;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitPhase;
import io.koord4j.testing.Conflicts;
import io.koord4j.testing.LocalCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every job kind on the real CRDs: queued suspended, held while its quota is short, resumed when
 * the quota frees, and releasing it when it finishes or is deleted. Every kind's operator runs
 * (KubeRay's, the Kubeflow training operator, the MPI Operator, Argo's workflow controller, the
 * Spark Operator), so admitted jobs really get pods; every job is finished by writing the status
 * its operator writes when it succeeds.
 */
class JobKindsIT extends InProcessManagerBase {

  @BeforeAll
  static void startOperators() {
    LocalCluster.script("jobs", "up");
  }
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final Duration PUBLISHED = Duration.ofSeconds(5);
  /**
   * Each kind as a job of 3 CPUs in all, and how its operator reports it finished. Every job is
   * created suspended, as the webhook stores it: created running, its operator would start pods
   * before the queue holds it.
   */
  enum Kind {
    TFJOB("kubeflow.org/v1", "TFJob", List.of("chief:1", "worker:2"), """
        spec:
          tfReplicaSpecs:
            Worker: {replicas: 2, template: {spec: {containers: [{name: tensorflow, image: tf, resources: {requests: {cpu: "1"}}}]}}}
            Chief: {template: {spec: {containers: [{name: tensorflow, image: tf, resources: {limits: {cpu: "1"}}}]}}}
        """, Map.of("conditions", List.of(Map.of("type", "Succeeded", "status", "True")), "replicaStatuses", Map.of())),
    PYTORCHJOB("kubeflow.org/v1", "PyTorchJob", List.of("master:1", "worker:2"), """
        spec:
          pytorchReplicaSpecs:
            Master: {replicas: 1, template: {spec: {containers: [{name: pytorch, image: pt, resources: {requests: {cpu: "1"}}}]}}}
            Worker: {replicas: 2, template: {spec: {containers: [{name: pytorch, image: pt, resources: {requests: {cpu: "1"}}}]}}}
        """, Map.of("conditions", List.of(Map.of("type", "Succeeded", "status", "True")), "replicaStatuses", Map.of())),
    MPIJOB("kubeflow.org/v2beta1", "MPIJob", List.of("launcher:1", "worker:2"), """
        spec:
          mpiReplicaSpecs:
            Launcher: {replicas: 1, template: {spec: {containers: [{name: launcher, image: mpi, resources: {requests: {cpu: "1"}}}]}}}
            Worker: {replicas: 2, template: {spec: {containers: [{name: worker, image: mpi, resources: {requests: {cpu: "1"}}}]}}}
        """, Map.of("conditions", List.of(Map.of("type", "Succeeded", "status", "True")))),
    SPARKAPPLICATION("sparkoperator.k8s.io/v1beta2", "SparkApplication", List.of("driver:1", "executor:2"), """
        spec:
          type: Scala
          mode: cluster
          image: spark:3.5.3
          mainClass: org.apache.spark.examples.SparkPi
          mainApplicationFile: local:///opt/spark/examples/jars/spark-examples.jar
          sparkVersion: 3.5.3
          driver: {cores: 1, memory: 512m}
          executor: {instances: 2, cores: 1, memory: 512m}
        """, Map.of("applicationState", Map.of("state", "COMPLETED"), "driverInfo", Map.of())),
    WORKFLOW("argoproj.io/v1alpha1", "Workflow", List.of("default:1"), """
        metadata:
          annotations: {koord-queue/min-resources: "cpu: 3"}
        spec:
          entrypoint: main
          templates: [{name: main, container: {image: busybox, command: ["true"]}}]
        """, Map.of("phase", "Succeeded")),
    RAYJOB("ray.io/v1", "RayJob", List.of("head:1", "workers:2"), """
        spec:
          entrypoint: python -c "print(1)"
          rayClusterSpec:
            headGroupSpec:
              rayStartParams: {}
              template: {spec: {containers: [{name: ray-head, image: "rayproject/ray:2.46.0", resources: {requests: {cpu: "1"}}}]}}
            workerGroupSpecs:
              - groupName: workers
                replicas: 2
                minReplicas: 0
                maxReplicas: 2
                rayStartParams: {}
                template: {spec: {containers: [{name: ray-worker, image: "rayproject/ray:2.46.0", resources: {requests: {cpu: "1"}}}]}}
        """, Map.of("jobDeploymentStatus", "Complete", "jobStatus", "SUCCEEDED"));

    final String apiVersion;
    final String kind;
    final List<String> podSets;
    final String body;
    final Map<String, Object> finishedStatus;

    Kind(String apiVersion, String kind, List<String> podSets, String body, Map<String, Object> finishedStatus) {
      this.apiVersion = apiVersion;
      this.kind = kind;
      this.podSets = podSets;
      this.body = body;
      this.finishedStatus = finishedStatus;
    }
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void aJobWaitsForQuotaStartsWhenItFreesAndReleasesItWhenDoneOrDeleted(Kind kind) {
    try (TestCluster cluster = new TestCluster(client, "it-" + kind.name().toLowerCase())) {
      String top = cluster.quota("top", null, true, "4", "4");
      String leaf = cluster.quota("leaf", top, false, "4", "4");
      GenericKubernetesResource first = create(cluster, kind, "first", leaf, kind.body);
      QueueUnit unit = await().atMost(WAIT).until(() -> cluster.unit("first"), u -> u != null);
      assertThat(unit.getSpec().getConsumerRef().getKind()).isEqualTo(kind.kind);
      assertThat(unit.getSpec().getPodSet())
          .extracting(p -> p.getName() + ":" + p.getCount())
          .containsExactlyElementsOf(kind.podSets);
      assertThat(unit.getSpec().getResource()).containsEntry("cpu", new Quantity("3"));
      await().atMost(WAIT).until(() -> !isSuspended(kind, cluster, "first"));

      create(cluster, kind, "second", leaf, kind.body);
      await().atMost(WAIT).until(() -> QueueUnitPhase.ENQUEUED.equals(cluster.phase("second")));
      assertThat(isSuspended(kind, cluster, "second")).isTrue();
      // Published figures lag the admission loop's by at most a pacing interval.
      await().atMost(PUBLISHED).untilAsserted(
          () -> assertThat(cluster.quota(leaf).getStatus().getUsed()).containsEntry("cpu", new Quantity("3")));

      // A running operator writes the status too: retry when its write came first.
      await().atMost(WAIT).ignoreException(KubernetesClientException.class)
          .until(() -> finish(kind, cluster, first) != null);
      await().atMost(WAIT).until(() -> QueueUnitPhase.SUCCEED.equals(cluster.phase("first")));
      await().atMost(WAIT).until(() -> !isSuspended(kind, cluster, "second"));
      // Published figures lag the admission loop's by at most a pacing interval.
      await().atMost(PUBLISHED).untilAsserted(
          () -> assertThat(cluster.quota(leaf).getStatus().getUsed()).containsEntry("cpu", new Quantity("3")));
      if (kind.podSets.size() > 1) {
        assertThat(templates(kind, cluster, "second"))
            .allSatisfy(annotations -> assertThat(annotations)
                .containsEntry(WellKnown.GANG_NAME, "second")
                .containsEntry(WellKnown.GANG_TOTAL_NUMBER, "3"));
      }

      client.genericKubernetesResources(kind.apiVersion, kind.kind).inNamespace(cluster.namespace)
          .withName("second").delete();
      await().atMost(WAIT).untilAsserted(
          () -> assertThat(cluster.quota(leaf).getStatus().getUsed()).containsEntry("cpu", new Quantity("0")));
    }
  }

  @Test
  void aMalformedJobStaysPendingAndSaysWhichFieldIsWrongUntilItsOwnerFixesIt() {
    try (TestCluster cluster = new TestCluster(client, "it-malformed")) {
      String top = cluster.quota("top", null, true, "4", "4");
      String leaf = cluster.quota("leaf", top, false, "4", "4");
      create(cluster, Kind.TFJOB, "broken", leaf, """
          spec:
            tfReplicaSpecs:
              Worker: {replicas: -2, template: {spec: {containers: [{name: tensorflow, image: tf, resources: {requests: {cpu: "1"}}}]}}}
          """);
      String expected = "spec.tfReplicaSpecs.Worker.replicas: -2 must not be negative";

      await().atMost(WAIT).untilAsserted(() -> assertThat(client.v1().events().inNamespace(cluster.namespace).list().getItems())
          .extracting(Event::getReason, Event::getMessage)
          .contains(org.assertj.core.groups.Tuple.tuple("InvalidJobSpec", expected)));
      await().atMost(WAIT).untilAsserted(() -> assertThat(conditions(Kind.TFJOB, cluster, "broken"))
          .anySatisfy(c -> assertThat(c).containsEntry("type", "Queued").containsEntry("status", "False")
              .containsEntry("message", expected)));
      assertThat(isSuspended(Kind.TFJOB, cluster, "broken")).isTrue();
      assertThat(cluster.unit("broken")).isNull();

      client.genericKubernetesResources(Kind.TFJOB.apiVersion, Kind.TFJOB.kind).inNamespace(cluster.namespace)
          .withName("broken").patch(PatchContext.of(PatchType.JSON_MERGE),
              "{\"spec\":{\"tfReplicaSpecs\":{\"Worker\":{\"replicas\":2}}}}");

      QueueUnit unit = await().atMost(WAIT).until(() -> cluster.unit("broken"), u -> u != null);
      assertThat(unit.getSpec().getResource()).containsEntry("cpu", new Quantity("2"));
      await().atMost(WAIT).until(() -> !isSuspended(Kind.TFJOB, cluster, "broken"));
      await().atMost(WAIT).untilAsserted(() -> assertThat(conditions(Kind.TFJOB, cluster, "broken"))
          .noneSatisfy(c -> assertThat(c).containsEntry("type", "Queued")));
    }
  }

  @Test
  void rayClustersAdmittedOneAtATimeRunTheirPodsWithKubeRay() {
    try (TestCluster cluster = new TestCluster(client, "it-raycluster")) {
      String top = cluster.quota("top", null, true, "2", "2");
      String leaf = cluster.quota("leaf", top, false, "2", "2");
      String body = """
          spec:
            headGroupSpec:
              rayStartParams: {}
              template: {spec: {containers: [{name: ray-head, image: "rayproject/ray:2.46.0", resources: {requests: {cpu: 500m}}}]}}
            workerGroupSpecs:
              - groupName: workers
                replicas: 2
                minReplicas: 0
                maxReplicas: 4
                rayStartParams: {}
                template: {spec: {containers: [{name: ray-worker, image: "rayproject/ray:2.46.0", resources: {requests: {cpu: 500m}}}]}}
          """;
      create(cluster, "ray.io/v1", "RayCluster", "first", leaf, body);
      await().atMost(WAIT).until(() -> cluster.unit("first"), u -> u != null);
      assertThat(cluster.unit("first").getSpec().getPodSet()).extracting(PodSet::getName, PodSet::getCount)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("head", 1), org.assertj.core.groups.Tuple.tuple("workers", 2));
      await().atMost(Duration.ofSeconds(120)).until(() -> runningPods(cluster, "ray.io/cluster", "first") == 3);

      create(cluster, "ray.io/v1", "RayCluster", "second", leaf, body);
      await().atMost(WAIT).until(() -> QueueUnitPhase.ENQUEUED.equals(cluster.phase("second")));
      assertThat(runningPods(cluster, "ray.io/cluster", "second")).isZero();

      client.genericKubernetesResources("ray.io/v1", "RayCluster").inNamespace(cluster.namespace).withName("first").delete();
      await().atMost(Duration.ofSeconds(120)).until(() -> runningPods(cluster, "ray.io/cluster", "second") == 3);
      assertThat(client.pods().inNamespace(cluster.namespace).withLabel("ray.io/cluster", "second").list().getItems())
          .allSatisfy(pod -> assertThat(pod.getMetadata().getAnnotations()).containsEntry(WellKnown.GANG_NAME, "second"));
    }
  }

  @Test
  void aRayJobIsQueuedOnceAndItsClusterRunsWithKubeRay() {
    try (TestCluster cluster = new TestCluster(client, "it-rayjob")) {
      String top = cluster.quota("top", null, true, "2", "2");
      String leaf = cluster.quota("leaf", top, false, "2", "2");
      create(cluster, "ray.io/v1", "RayJob", "job", leaf, """
          spec:
            entrypoint: python -c "print(1)"
            shutdownAfterJobFinishes: true
            rayClusterSpec:
              headGroupSpec:
                rayStartParams: {}
                template: {spec: {containers: [{name: ray-head, image: "rayproject/ray:2.46.0", resources: {requests: {cpu: 500m}}}]}}
              workerGroupSpecs:
                - groupName: workers
                  replicas: 1
                  minReplicas: 0
                  maxReplicas: 2
                  rayStartParams: {}
                  template: {spec: {containers: [{name: ray-worker, image: "rayproject/ray:2.46.0", resources: {requests: {cpu: 500m}}}]}}
          """);
      QueueUnit unit = await().atMost(WAIT).until(() -> cluster.unit("job"), u -> u != null);
      assertThat(unit.getSpec().getResource()).containsEntry("cpu", new Quantity("1"));

      await().atMost(Duration.ofSeconds(120)).until(() -> runningPods(cluster, "ray.io/node-type", "worker") == 1);
      List<GenericKubernetesResource> rayClusters =
          client.genericKubernetesResources("ray.io/v1", "RayCluster").inNamespace(cluster.namespace).list().getItems();
      assertThat(rayClusters).singleElement()
          .satisfies(rc -> assertThat(cluster.unit(rc.getMetadata().getName())).isNull());
      assertThat(client.resources(QueueUnit.class).inNamespace(cluster.namespace).list().getItems()).hasSize(1);

      client.genericKubernetesResources("ray.io/v1", "RayJob").inNamespace(cluster.namespace).withName("job").delete();
      await().atMost(WAIT).untilAsserted(
          () -> assertThat(cluster.quota(leaf).getStatus().getUsed()).containsEntry("cpu", new Quantity("0")));
    }
  }

  private GenericKubernetesResource create(TestCluster cluster, Kind kind, String name, String quota, String body) {
    return create(cluster, kind.apiVersion, kind.kind, name, quota, body);
  }

  /** A job of the kind, created suspended as the webhook stores it. */
  private GenericKubernetesResource create(
      TestCluster cluster, String apiVersion, String kind, String name, String quota, String body) {
    GenericKubernetesResource job = QueuedJobs.of(apiVersion, kind, name, cluster.namespace, quota, body);
    return client.resource(QueuedJobs.suspended(job)).create();
  }

  private boolean isSuspended(Kind kind, TestCluster cluster, String name) {
    return QueuedJobs.isSuspended(get(kind, cluster, name));
  }

  private List<Map<String, String>> templates(Kind kind, TestCluster cluster, String name) {
    return QueuedJobs.podSets(get(kind, cluster, name)).stream()
        .map(p -> p.template().getMetadata().getAnnotations())
        .toList();
  }

  @SuppressWarnings("unchecked")
  private List<Map<String, Object>> conditions(Kind kind, TestCluster cluster, String name) {
    Map<String, Object> status = (Map<String, Object>) get(kind, cluster, name).getAdditionalProperties().get("status");
    return status == null ? List.of() : (List<Map<String, Object>>) status.getOrDefault("conditions", List.of());
  }

  /**
   * What the kind's operator writes when the job succeeds. Argo has no status subresource, and
   * labels a workflow it finished so that its controller leaves it alone.
   */
  private GenericKubernetesResource finish(Kind kind, TestCluster cluster, GenericKubernetesResource created) {
    UnaryOperator<GenericKubernetesResource> finished = job -> {
      job.getAdditionalProperties().put("status", kind.finishedStatus);
      if (kind == Kind.WORKFLOW) {
        job.getMetadata().getLabels().put("workflows.argoproj.io/completed", "true");
      }
      return job;
    };
    var resource = client.genericKubernetesResources(kind.apiVersion, kind.kind)
        .inNamespace(cluster.namespace).withName(created.getMetadata().getName());
    return Conflicts.retrying(() -> kind == Kind.WORKFLOW ? resource.edit(finished) : resource.editStatus(finished));
  }

  private GenericKubernetesResource get(Kind kind, TestCluster cluster, String name) {
    return client.genericKubernetesResources(kind.apiVersion, kind.kind).inNamespace(cluster.namespace).withName(name).get();
  }

  private long runningPods(TestCluster cluster, String label, String value) {
    return client.pods().inNamespace(cluster.namespace).withLabel(label, value).list().getItems().stream()
        .map(Pod::getStatus)
        .filter(status -> status != null && "Running".equals(status.getPhase()))
        .count();
  }
}
