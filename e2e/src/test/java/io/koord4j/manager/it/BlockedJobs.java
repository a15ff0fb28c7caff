package io.koord4j.manager.it;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.WellKnown;
import io.koord4j.api.kueue.AdmissionCheck;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.testing.LocalCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Jobs held back for each reason, on the local cluster and the in-process manager: a quota
 * shortage ({@code too-big} in a 2-CPU leaf under a 4-CPU parent), higher-priority units ahead
 * ({@code low} behind {@code high-1} and {@code high-2} in a busy 1-CPU quota), an admission
 * check whose gang of two 8-GPU pods finds only one node with 8 free GPUs ({@code trainer}), and a
 * job that is not queued at all ({@code plain}). Created once all its waits are visible.
 */
final class BlockedJobs implements AutoCloseable {
  private static final Duration WAIT = Duration.ofSeconds(180);
  private static final String POOL_LABEL = "koord4j.io/cli-it-pool";

  private final KubernetesClient client;
  private final String run = UUID.randomUUID().toString().substring(0, 6);
  private final List<String> gpuNodes = List.of("cli-it-" + run + "-0", "cli-it-" + run + "-1");
  private final TestCluster cluster;
  private Resource<GenericKubernetesResource> admissionCheck;
  private String quotaLeaf;
  private String busyLeaf;

  private BlockedJobs(KubernetesClient client) {
    this.client = client;
    this.cluster = new TestCluster(client, "it-cli");
  }

  static BlockedJobs create(KubernetesClient client) throws InterruptedException {
    BlockedJobs scenario = new BlockedJobs(client);
    scenario.build();
    return scenario;
  }

  TestCluster cluster() {
    return cluster;
  }

  /** The leaf quota (and queue) of {@code too-big}. */
  String quotaLeaf() {
    return quotaLeaf;
  }

  /** The busy quota (and queue) of {@code holder}, {@code low}, {@code high-1}, {@code high-2}. */
  String busyLeaf() {
    return busyLeaf;
  }

  /** The AdmissionCheck the {@code trainer}'s queue names. */
  String check() {
    return "cli-gang-" + run;
  }

  /** The GPU node whose GPUs 0-3 {@code gpu-holder} holds. */
  String halfTakenNode() {
    return gpuNodes.get(1);
  }

  private void build() throws InterruptedException {
    // status.positionInQueue is newer than the copy other checkouts may have installed.
    LocalCluster.applyCrds(client, HasMetadata.getFullResourceName(QueueUnit.class));
    admissionCheck = client.resource(Serialization.unmarshal("""
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: AdmissionCheck
        metadata: {name: %s}
        spec: {controllerName: %s}
        """.formatted(check(), AdmissionCheck.KOORD4J_CONTROLLER), GenericKubernetesResource.class));
    admissionCheck.create();
    LocalCluster.script("nodes", "--count", "2", "--cpu", "96", "--memory", "1Ti", "--gpus", "8",
        "--gpu-model", "H100", "--prefix", "cli-it-" + run);
    gpuNodes.forEach(node -> LocalCluster.labelNode(client, node, Map.of(POOL_LABEL, run)));

    // Quota: a 2-CPU leaf under a 4-CPU parent; the job asks 3.
    cluster.queue("research", "Priority");
    cluster.queue("nlp", "Priority");
    String research = cluster.quota("research", null, true, "4", "4");
    quotaLeaf = cluster.quota("nlp", research, false, "2", "2");
    cluster.job("too-big", quotaLeaf, 1, "3", 0, "1h");

    // Priority: a 1-CPU quota busy for an hour, then a low job behind two high ones.
    cluster.queue("busy", "Priority");
    busyLeaf = cluster.quota("busy", null, false, "1", "1");
    String low = cluster.priorityClass("low", 10);
    String high = cluster.priorityClass("high", 1000);
    cluster.job("holder", busyLeaf, "1", low, "1h");
    await().atMost(WAIT).until(() -> cluster.resumed("holder"));
    cluster.job("low", busyLeaf, "1", low, "1h");
    Thread.sleep(1_100); // creation times have whole seconds: low is the oldest pending job
    cluster.job("high-1", busyLeaf, "1", high, "1h");
    cluster.job("high-2", busyLeaf, "1", high, "1h");

    // Admission check and GPU shape: two 8-GPU pods, one node half taken.
    cluster.queue("gpu", "Priority", List.of(check()));
    String gpuLeaf = cluster.quota("gpu", null, false, "8", "8");
    client.resource(gpuHolder(cluster.namespace, halfTakenNode())).create();
    client.resource(cluster.jobOf("trainer", gpuLeaf, 2, "1", "1h", pod -> pod
        .addToNodeSelector(POOL_LABEL, run)
        .editFirstContainer().editResources()
        .addToRequests(WellKnown.NVIDIA_GPU, new Quantity("8"))
        .addToLimits(WellKnown.NVIDIA_GPU, new Quantity("8"))
        .endResources().endContainer())).create();

    // Not queued: no queue label in a namespace nothing manages.
    client.resource(new JobBuilder().withNewMetadata().withName("plain").withNamespace(cluster.namespace).endMetadata()
        .withNewSpec().withSuspend(true).withNewTemplate().withNewSpec().withRestartPolicy("Never")
        .addNewContainer().withName("work").withImage("busybox").endContainer().endSpec().endTemplate().endSpec()
        .build()).create();

    // Each unit's wait is written on its own: low's place behind both high ones may come last.
    await().atMost(WAIT).until(() -> waitingFor("too-big", "QuotaShortage") && waitingFor("low", "QuotaShortage")
        && waitingFor("high-1", "QuotaShortage") && waitingFor("high-2", "QuotaShortage")
        && Integer.valueOf(3).equals(cluster.unit("low").getStatus().getPositionInQueue()) && gangCheckAnswered()
        && runtimePublished(quotaLeaf) && usePublished(busyLeaf));
  }

  @Override
  public void close() {
    cluster.close();
    if (admissionCheck != null) {
      admissionCheck.delete();
    }
    gpuNodes.forEach(node -> client.nodes().withName(node).delete());
  }

  private boolean waitingFor(String job, String reason) {
    QueueUnit unit = cluster.unit(job);
    return unit != null && unit.getStatus() != null && unit.getStatus().getConditions() != null
        && unit.getStatus().getConditions().stream().anyMatch(c -> reason.equals(c.getReason()));
  }

  private boolean runtimePublished(String quota) {
    var annotations = cluster.quota(quota).getMetadata().getAnnotations();
    return annotations != null && annotations.containsKey(WellKnown.QUOTA_RUNTIME);
  }

  private boolean usePublished(String quota) {
    var status = cluster.quota(quota).getStatus();
    return status != null && status.getUsed() != null && status.getUsed().containsKey("cpu");
  }

  private boolean gangCheckAnswered() {
    QueueUnit unit = cluster.unit("trainer");
    return unit != null && unit.getStatus() != null && unit.getStatus().getAdmissionChecks() != null
        && unit.getStatus().getAdmissionChecks().stream()
            .anyMatch(check -> check.getMessage() != null && check.getMessage().startsWith("waiting for room"));
  }

  /** Holds GPUs 0-3 of the node, as koord-scheduler records them. */
  private static Pod gpuHolder(String namespace, String node) {
    return new PodBuilder()
        .withNewMetadata().withName("gpu-holder").withNamespace(namespace)
        .addToAnnotations(WellKnown.DEVICE_ALLOCATED, "{\"gpu\":[{\"minor\":0},{\"minor\":1},{\"minor\":2},{\"minor\":3}]}")
        .endMetadata()
        .withNewSpec().withNodeName(node)
        .addNewContainer().withName("work").withImage("busybox")
        .withNewResources().addToRequests(WellKnown.NVIDIA_GPU, new Quantity("4"))
        .addToLimits(WellKnown.NVIDIA_GPU, new Quantity("4")).endResources().endContainer()
        .endSpec().build();
  }
}
