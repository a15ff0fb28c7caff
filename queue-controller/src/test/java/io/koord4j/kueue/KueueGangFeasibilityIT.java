package io.koord4j.kueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientTimeoutException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.WellKnown;
import io.koord4j.api.check.GangFeasibilityParameters;
import io.koord4j.api.kueue.AdmissionCheckState;
import io.koord4j.api.kueue.KueueObject;
import io.koord4j.api.kueue.Workload;
import io.koord4j.api.kueue.WorkloadStatus;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.api.quota.ElasticQuotaSpec;
import io.koord4j.manager.it.InProcessManager;
import io.koord4j.testing.Conflicts;
import io.koord4j.testing.LocalCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Real Kueue with koord4j's gang-feasibility AdmissionCheck: two KWOK nodes of 8 GPUs, quota for
 * 16, and jobs that Kueue would start on quota alone. A second check, with GangFeasibilityParameters
 * keeping each gang in one rack, serves four more nodes in two racks and an ElasticQuota. Each test
 * leaves the namespace without jobs, pods or workloads, so that any one runs alone or in any order.
 */
class KueueGangFeasibilityIT {
  private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
  private static final String NAMESPACE = "kueue-gang-" + RUN;
  private static final String NODE_PREFIX = "kueue-gang-" + RUN;
  private static final String POOL_LABEL = "koord4j.io/it-pool";
  private static final String CHECK = "gang-feasibility-" + RUN;
  private static final String FLAVOR = "kueue-gang-flavor-" + RUN;
  private static final String CHECKED_CQ = "kueue-gang-checked-" + RUN;
  private static final String PLAIN_CQ = "kueue-gang-plain-" + RUN;
  private static final String RACK_NODE_PREFIX = "kueue-rack-" + RUN;
  private static final String RACK_LABEL = "koord4j.io/it-rack";
  private static final String RACK_CHECK = "gang-in-one-rack-" + RUN;
  private static final String RACK_PARAMETERS = "one-rack-" + RUN;
  private static final String RACK_CQ = "kueue-gang-racks-" + RUN;
  private static final String BROKEN_CHECK = "gang-broken-" + RUN;
  private static final String BROKEN_PARAMETERS = "broken-" + RUN;
  private static final String QUOTA = "kueue-gang-quota-" + RUN;
  private static final String QUOTA_NAMESPACE = "koordinator-system";
  /** Long enough that no workload turns Retry during the test. */
  private static final CheckSettings SETTINGS = new CheckSettings(Duration.ofMinutes(10), 60);
  private static final Duration TIMEOUT = Duration.ofSeconds(90);

  private static KubernetesClient client;
  private static KueueAdmissionCheckController<?> controller;

  @BeforeAll
  static void setUp() {
    // Kueue owns the jobs here; koord4j's own queues must not claim them too.
    InProcessManager.stop();
    client = LocalCluster.client();
    LocalCluster.script("nodes", "--count", "2", "--cpu", "96", "--memory", "1Ti", "--gpus", "8",
        "--gpu-model", "H100", "--prefix", NODE_PREFIX);
    for (String node : nodes()) {
      LocalCluster.labelNode(client, node, Map.of(POOL_LABEL, RUN));
    }
    LocalCluster.script("nodes", "--count", "4", "--cpu", "96", "--memory", "1Ti", "--gpus", "8",
        "--gpu-model", "H100", "--prefix", RACK_NODE_PREFIX);
    for (int i = 0; i < 4; i++) {
      String rack = i < 2 ? "r1" : "r2";
      LocalCluster.labelNode(client, rackNode(i), Map.of(POOL_LABEL, RUN + "-racks", RACK_LABEL, rack));
    }
    client.apiextensions().v1().customResourceDefinitions()
        .load(LocalCluster.repoRoot().resolve("crds/manifests/gangfeasibilityparameters.koord4j.io-v1.yml").toFile())
        .forceConflicts().serverSideApply();
    await().atMost(TIMEOUT).until(() -> client.supports(GangFeasibilityParameters.class));
    LocalCluster.script("kueue", "up");
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE)
        .endMetadata().build()).serverSideApply();
    apply("""
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: AdmissionCheck
        metadata: {name: %s}
        spec: {controllerName: koord4j.io/gang-feasibility}
        """.formatted(CHECK));
    apply("""
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ResourceFlavor
        metadata: {name: %s}
        """.formatted(FLAVOR));
    apply(clusterQueue(CHECKED_CQ, "16", "admissionChecksStrategy: {admissionChecks: [{name: %s}]}".formatted(CHECK)));
    apply(clusterQueue(PLAIN_CQ, "0", ""));
    apply(localQueue("checked", CHECKED_CQ));
    apply(localQueue("plain", PLAIN_CQ));
    apply("""
        apiVersion: koord4j.io/v1alpha1
        kind: GangFeasibilityParameters
        metadata: {name: %s}
        spec: {topologyScope: Domain, topologyKey: %s}
        """.formatted(RACK_PARAMETERS, RACK_LABEL));
    apply(admissionCheck(RACK_CHECK, RACK_PARAMETERS));
    apply(clusterQueue(RACK_CQ, "32", "admissionChecksStrategy: {admissionChecks: [{name: %s}]}".formatted(RACK_CHECK)));
    apply(localQueue("racks", RACK_CQ));
    controller = KueueAdmissionCheckController.start(client, SETTINGS);
  }

  /** Removes the test's jobs, pods and workloads, and waits until Kueue released their quota. */
  @AfterEach
  void removeJobs() {
    client.batch().v1().jobs().inNamespace(NAMESPACE).withPropagationPolicy(DeletionPropagation.FOREGROUND).delete();
    client.pods().inNamespace(NAMESPACE).withGracePeriod(0).delete();
    await("the test's jobs, pods and workloads are gone").atMost(TIMEOUT)
        .until(() -> client.batch().v1().jobs().inNamespace(NAMESPACE).list().getItems().isEmpty()
            && client.pods().inNamespace(NAMESPACE).list().getItems().isEmpty()
            && client.genericKubernetesResources(Workload.CONTEXT).inNamespace(NAMESPACE).list().getItems().isEmpty());
  }

  @AfterAll
  static void tearDown() {
    if (controller != null) {
      controller.close();
    }
    if (client != null) {
      client.namespaces().withName(NAMESPACE).delete();
      client.genericKubernetesResources(Workload.CONTEXT).inNamespace(NAMESPACE).resources()
          .forEach(KueueGangFeasibilityIT::deleteFully);
      await().atMost(TIMEOUT).until(() -> client.namespaces().withName(NAMESPACE).get() == null);
      deleteFully(kueueObject("ClusterQueue", CHECKED_CQ));
      deleteFully(kueueObject("ClusterQueue", PLAIN_CQ));
      deleteFully(kueueObject("ResourceFlavor", FLAVOR));
      deleteFully(kueueObject("ClusterQueue", RACK_CQ));
      deleteFully(kueueObject("AdmissionCheck", CHECK));
      deleteFully(kueueObject("AdmissionCheck", RACK_CHECK));
      deleteFully(kueueObject("AdmissionCheck", BROKEN_CHECK));
      client.resources(GangFeasibilityParameters.class).withName(RACK_PARAMETERS).delete();
      client.resources(GangFeasibilityParameters.class).withName(BROKEN_PARAMETERS).delete();
      client.resources(ElasticQuota.class).inNamespace(QUOTA_NAMESPACE).withName(QUOTA).delete();
      nodes().forEach(node -> client.nodes().withName(node).delete());
      for (int i = 0; i < 4; i++) {
        client.nodes().withName(rackNode(i)).delete();
      }
      client.close();
    }
    // Kueue claims every job labelled with a queue name; stop it so later tests own their jobs.
    LocalCluster.script("kueue", "down");
  }

  @Test
  void gangWaitsForFreeGpusSurvivesARestartThenStarts() {
    Pod holder = client.resource(gpuPod("holder", nodes().get(1), 4)).create();
    client.resource(gpuJob("gang", 2, 8)).create();

    AdmissionCheckState waiting = await().atMost(TIMEOUT).until(() -> ourCheck("gang"),
        check -> check.filter(c -> c.getMessage().startsWith("waiting for room")).isPresent()).orElseThrow();
    assertThat(waiting.getState()).isEqualTo(AdmissionCheckState.PENDING);
    assertThat(waiting.getMessage()).contains("pod set main: 1 of 2 pods placed");
    Workload workload = workload("gang").orElseThrow();
    assertThat(isTrue(workload, WorkloadStatus.QUOTA_RESERVED)).as("Kueue reserved the quota").isTrue();
    assertThat(isTrue(workload, WorkloadStatus.ADMITTED)).as("but does not admit").isFalse();
    assertThat(job("gang").getSpec().getSuspend()).isTrue();

    controller.close();
    controller = KueueAdmissionCheckController.start(client, SETTINGS);
    await("the restarted check decides the waiting workload again").atMost(TIMEOUT)
        .until(() -> controller.decisionPasses() >= 1);
    AdmissionCheckState afterRestart = ourCheck("gang").orElseThrow();
    assertThat(afterRestart.getState()).isEqualTo(waiting.getState());
    assertThat(afterRestart.getMessage()).isEqualTo(waiting.getMessage());
    assertThat(afterRestart.getLastTransitionTime()).isEqualTo(waiting.getLastTransitionTime());

    client.resource(holder).withGracePeriod(0).delete();

    await().atMost(TIMEOUT).until(() -> ourCheck("gang").map(AdmissionCheckState::getState),
        state -> state.equals(Optional.of(AdmissionCheckState.READY)));
    await().atMost(TIMEOUT).until(() -> isTrue(workload("gang").orElseThrow(), WorkloadStatus.ADMITTED));
    await().atMost(TIMEOUT).until(() -> Boolean.FALSE.equals(job("gang").getSpec().getSuspend()));
    await().atMost(TIMEOUT).until(() -> runningPods("gang").size() == 2);
    assertThat(runningPods("gang")).allSatisfy(pod -> assertThat(pod.getMetadata().getAnnotations())
        .containsEntry("gang.scheduling.koordinator.sh/name", workload("gang").orElseThrow().getMetadata().getName())
        .containsEntry("gang.scheduling.koordinator.sh/min-available", "2"));
    assertThat(runningPods("gang")).extracting(pod -> pod.getSpec().getNodeName())
        .containsExactlyInAnyOrderElementsOf(nodes());
  }

  /** 16 GPUs in one pod: within quota, but no node has that many. */
  @Test
  void gangBiggerThanTheClusterIsRejectedAndDeactivated() {
    client.resource(gpuJob("huge", 1, 16)).create();

    await("Kueue deactivates the workload").atMost(TIMEOUT)
        .until(() -> rawWorkload("huge")
            .map(workload -> Boolean.FALSE.equals(workload.<Boolean>get("spec", "active")))
            .orElse(false));
    // Deactivating evicts, a later write that resets every check to Pending; the event keeps our reason.
    await("Kueue resets the rejected check on eviction").atMost(TIMEOUT)
        .until(() -> ourCheck("huge").map(AdmissionCheckState::getMessage).orElse(""),
            message -> message.endsWith("Previously: Rejected"));
    String workloadName = workload("huge").orElseThrow().getMetadata().getName();
    assertThat(client.v1().events().inNamespace(NAMESPACE).list().getItems())
        .filteredOn(event -> workloadName.equals(event.getInvolvedObject().getName())
            && "AdmissionCheckRejected".equals(event.getReason()))
        .singleElement()
        .satisfies(event -> assertThat(event.getMessage())
            .contains(CHECK + " was Rejected: the gang does not fit even on empty nodes: pod set main: 0 of 1 pods placed"));
    assertThat(job("huge").getSpec().getSuspend()).isTrue();
  }

  @Test
  void queueWithoutTheCheckAdmitsOnQuotaAlone() {
    client.resource(new JobBuilder()
        .withNewMetadata().withName("plain").withNamespace(NAMESPACE)
        .addToLabels("kueue.x-k8s.io/queue-name", "plain").endMetadata()
        .withNewSpec().withParallelism(1).withCompletions(1)
        .withNewTemplate().withNewSpec().withRestartPolicy("Never")
        .addToNodeSelector(POOL_LABEL, RUN)
        .addNewContainer().withName("work").withImage("busybox")
        .withNewResources().addToRequests("cpu", new Quantity("1")).endResources().endContainer()
        .endSpec().endTemplate().endSpec().build()).create();

    await().atMost(TIMEOUT).until(() -> workload("plain").filter(w -> isTrue(w, WorkloadStatus.ADMITTED)).isPresent());
    assertThat(workload("plain").orElseThrow().getStatus().getAdmissionChecks()).isNullOrEmpty();
    await().atMost(TIMEOUT).until(() -> Boolean.FALSE.equals(job("plain").getSpec().getSuspend()));
  }

  @Test
  void missingOrInvalidParametersKeepTheCheckInactiveNamingTheField() {
    apply(admissionCheck(BROKEN_CHECK, BROKEN_PARAMETERS));
    await().atMost(TIMEOUT).until(() -> activeCondition(BROKEN_CHECK),
        active -> active.filter(c -> "False".equals(c.get("status"))).isPresent());
    assertThat(activeCondition(BROKEN_CHECK).orElseThrow()).containsEntry("message",
        "spec.parameters.name: GangFeasibilityParameters \"" + BROKEN_PARAMETERS + "\" not found");

    apply("""
        apiVersion: koord4j.io/v1alpha1
        kind: GangFeasibilityParameters
        metadata: {name: %s}
        spec: {topologyScope: Domain}
        """.formatted(BROKEN_PARAMETERS));
    await().atMost(TIMEOUT).until(() -> activeCondition(BROKEN_CHECK).map(c -> c.get("message")),
        message -> message.equals(Optional.of("GangFeasibilityParameters \"" + BROKEN_PARAMETERS
            + "\": spec.topologyKey: required when spec.topologyScope is Domain")));

    client.resources(GangFeasibilityParameters.class).withName(BROKEN_PARAMETERS)
        .edit(fixed -> {
          fixed.getSpec().setTopologyScope("Node");
          return fixed;
        });
    await().atMost(TIMEOUT).until(() -> activeCondition(BROKEN_CHECK).map(c -> c.get("status")),
        status -> status.equals(Optional.of("True")));
  }

  /** Rack r1 has a GPU taken, so only r2 can hold two 8-GPU pods. */
  @Test
  void gangThatMustStayInOneRackGetsTheRackWhereItFits() {
    client.resource(gpuPod("rack-holder", rackNode(0), 1)).create();
    client.resource(gpuJob("racked", "racks", RUN + "-racks", 2, 8, null)).create();

    await().atMost(TIMEOUT).until(() -> check("racked", RACK_CHECK).map(AdmissionCheckState::getState),
        state -> state.equals(Optional.of(AdmissionCheckState.READY)));
    AdmissionCheckState ready = check("racked", RACK_CHECK).orElseThrow();
    assertThat(ready.getMessage()).startsWith("all 2 pods fit now in " + RACK_LABEL + "=r2: ");
    assertThat(ready.getPodSetUpdates()).singleElement()
        .satisfies(update -> assertThat(update.getNodeSelector()).containsExactly(Map.entry(RACK_LABEL, "r2")));
    await().atMost(TIMEOUT).until(() -> runningPods("racked").size() == 2);
    assertThat(runningPods("racked")).allSatisfy(pod ->
        assertThat(pod.getSpec().getNodeSelector()).containsEntry(RACK_LABEL, "r2"));
    assertThat(runningPods("racked")).extracting(pod -> pod.getSpec().getNodeName())
        .containsExactlyInAnyOrder(rackNode(2), rackNode(3));
  }

  /** Rack r1 has 15 free GPUs but the job's ElasticQuota (8 GPUs) has 4 in use. */
  @Test
  void gangOfAnElasticQuotaWaitsForQuotaRoomThenStarts() {
    ElasticQuota quota = new ElasticQuota();
    quota.getMetadata().setName(QUOTA);
    quota.getMetadata().setNamespace(QUOTA_NAMESPACE);
    quota.setSpec(new ElasticQuotaSpec());
    quota.getSpec().setMin(Map.of("nvidia.com/gpu", new Quantity("8")));
    quota.getSpec().setMax(Map.of("nvidia.com/gpu", new Quantity("8")));
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(QUOTA_NAMESPACE)
        .endMetadata().build()).serverSideApply();
    client.resource(quota).serverSideApply();
    Pod quotaHolder = gpuPod("quota-holder", rackNode(1), 4);
    quotaHolder.getMetadata().setLabels(Map.of(WellKnown.QUOTA_NAME, QUOTA));
    quotaHolder = client.resource(quotaHolder).create();
    client.resource(gpuJob("quota-gang", "racks", RUN + "-racks", 2, 4, QUOTA)).create();

    await().atMost(TIMEOUT).until(() -> check("quota-gang", RACK_CHECK).map(AdmissionCheckState::getMessage),
        message -> message.filter(m -> m.startsWith("waiting for room: quota")).isPresent());
    assertThat(check("quota-gang", RACK_CHECK).orElseThrow()).satisfies(check -> {
      assertThat(check.getState()).isEqualTo(AdmissionCheckState.PENDING);
      assertThat(check.getMessage()).isEqualTo(
          "waiting for room: quota \"" + QUOTA + "\" has 4 of nvidia.com/gpu available, 8 requested");
    });

    client.resource(quotaHolder).withGracePeriod(0).delete();

    await().atMost(TIMEOUT).until(() -> check("quota-gang", RACK_CHECK).map(AdmissionCheckState::getState),
        state -> state.equals(Optional.of(AdmissionCheckState.READY)));
    await().atMost(TIMEOUT).until(() -> runningPods("quota-gang").size() == 2);
  }

  private static String admissionCheck(String name, String parameters) {
    return """
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: AdmissionCheck
        metadata: {name: %s}
        spec:
          controllerName: koord4j.io/gang-feasibility
          parameters: {apiGroup: koord4j.io, kind: GangFeasibilityParameters, name: %s}
        """.formatted(name, parameters);
  }

  @SuppressWarnings("unchecked")
  private static Optional<Map<String, Object>> activeCondition(String check) {
    GenericKubernetesResource found = kueueObject("AdmissionCheck", check).get();
    List<Map<String, Object>> conditions = found == null ? null : found.get("status", "conditions");
    return conditions == null ? Optional.empty()
        : conditions.stream().filter(c -> "Active".equals(c.get("type"))).findFirst();
  }

  private static String rackNode(int i) {
    return RACK_NODE_PREFIX + "-" + i;
  }

  /** A running pod holding GPUs by request, bound to {@code node}. */
  private static Pod gpuPod(String name, String node, int gpus) {
    return new PodBuilder()
        .withNewMetadata().withName(name).withNamespace(NAMESPACE).endMetadata()
        .withNewSpec().withNodeName(node)
        .addNewContainer().withName("work").withImage("busybox")
        .withNewResources().addToRequests("nvidia.com/gpu", new Quantity(Integer.toString(gpus)))
        .addToLimits("nvidia.com/gpu", new Quantity(Integer.toString(gpus))).endResources().endContainer()
        .endSpec().build();
  }

  /** A job in the queue with our check. */
  private static Job gpuJob(String name, int pods, int gpusPerPod) {
    return gpuJob(name, "checked", RUN, pods, gpusPerPod, null);
  }

  /** @param quota the ElasticQuota its pods are charged to, or null */
  private static Job gpuJob(String name, String queue, String pool, int pods, int gpusPerPod, String quota) {
    Quantity gpus = new Quantity(Integer.toString(gpusPerPod));
    return new JobBuilder()
        .withNewMetadata().withName(name).withNamespace(NAMESPACE)
        .addToLabels("kueue.x-k8s.io/queue-name", queue).endMetadata()
        .withNewSpec().withParallelism(pods).withCompletions(pods)
        .withNewTemplate()
        .withNewMetadata().addToAnnotations("pod-complete.stage.kwok.x-k8s.io/delay", "1h")
        .withLabels(quota == null ? Map.of() : Map.of(WellKnown.QUOTA_NAME, quota)).endMetadata()
        .withNewSpec().withRestartPolicy("Never")
        .addToNodeSelector(POOL_LABEL, pool)
        .addNewContainer().withName("train").withImage("busybox")
        .withNewResources()
        .addToRequests("cpu", new Quantity("1"))
        .addToRequests("nvidia.com/gpu", gpus)
        .addToLimits("nvidia.com/gpu", gpus).endResources().endContainer()
        .endSpec().endTemplate().endSpec().build();
  }

  private static String clusterQueue(String name, String gpus, String checks) {
    return """
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ClusterQueue
        metadata: {name: %s}
        spec:
          namespaceSelector: {}
          %s
          resourceGroups:
          - coveredResources: [cpu, nvidia.com/gpu]
            flavors:
            - name: %s
              resources:
              - {name: cpu, nominalQuota: "64"}
              - {name: nvidia.com/gpu, nominalQuota: "%s"}
        """.formatted(name, checks, FLAVOR, gpus);
  }

  private static String localQueue(String name, String clusterQueue) {
    return """
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: LocalQueue
        metadata: {name: %s, namespace: %s}
        spec: {clusterQueue: %s}
        """.formatted(name, NAMESPACE, clusterQueue);
  }

  /** Kueue's webhook may take a moment to answer after Kueue starts. */
  private static void apply(String yaml) {
    GenericKubernetesResource resource = Serialization.unmarshal(yaml, GenericKubernetesResource.class);
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
        .until(() -> client.resource(resource).serverSideApply() != null);
  }

  private static Resource<GenericKubernetesResource> kueueObject(String kind, String name) {
    return client.genericKubernetesResources(KueueObject.GROUP + "/" + KueueObject.VERSION, kind).withName(name);
  }

  /**
   * Deletes and waits until gone. Kueue's in-use finalizers need Kueue, and a concurrent test run
   * on the same cluster may have stopped it: then the finalizer is dropped so nothing is left.
   */
  private static void deleteFully(Resource<GenericKubernetesResource> resource) {
    resource.delete();
    try {
      resource.waitUntilCondition(Objects::isNull, 30, TimeUnit.SECONDS);
    } catch (KubernetesClientTimeoutException e) {
      Conflicts.retrying(() -> resource.edit(stuck -> {
        stuck.getMetadata().setFinalizers(List.of());
        return stuck;
      }));
    }
  }

  private static List<String> nodes() {
    return List.of(NODE_PREFIX + "-0", NODE_PREFIX + "-1");
  }

  private static Job job(String name) {
    return client.batch().v1().jobs().inNamespace(NAMESPACE).withName(name).get();
  }

  private static Optional<GenericKubernetesResource> rawWorkload(String jobName) {
    return client.genericKubernetesResources(Workload.CONTEXT).inNamespace(NAMESPACE).list().getItems().stream()
        .filter(w -> w.getMetadata().getOwnerReferences().stream().anyMatch(o -> jobName.equals(o.getName())))
        .findFirst();
  }

  private static Optional<Workload> workload(String jobName) {
    return rawWorkload(jobName).map(w -> KueueObject.from(w, Workload.class));
  }

  private static Optional<AdmissionCheckState> ourCheck(String jobName) {
    return check(jobName, CHECK);
  }

  private static Optional<AdmissionCheckState> check(String jobName, String check) {
    return workload(jobName)
        .map(Workload::getStatus)
        .map(WorkloadStatus::getAdmissionChecks)
        .flatMap(checks -> checks.stream().filter(c -> check.equals(c.getName())).findFirst());
  }

  private static boolean isTrue(Workload workload, String type) {
    return workload.getStatus() != null && workload.getStatus().getConditions() != null
        && workload.getStatus().getConditions().stream()
            .anyMatch(c -> type.equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private static List<Pod> runningPods(String jobName) {
    return client.pods().inNamespace(NAMESPACE).withLabel("job-name", jobName).list().getItems().stream()
        .filter(pod -> pod.getStatus() != null && "Running".equals(pod.getStatus().getPhase()))
        .toList();
  }
}
