package io.koord4j.manager.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.kueue.AdmissionCheck;
import io.koord4j.api.kueue.AdmissionCheckState;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitPhase;
import io.koord4j.testing.LocalCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A koord4j Queue naming koord4j's gang-feasibility AdmissionCheck (Kueue itself off): a unit that
 * fits its quota but not the free GPUs waits in Reserved with the check's message, across a
 * manager restart, and starts when the GPUs free up.
 */
class GangCheckQueueIT extends InProcessManagerBase {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final String POOL_LABEL = "koord4j.io/it-pool";

  @Test
  void aUnitThatFitsItsQuotaButNotTheGpusStaysReservedThenRuns() throws InterruptedException {
    String run = UUID.randomUUID().toString().substring(0, 8);
    String nodePrefix = "gang-check-" + run;
    String check = "gang-check-" + run;
    List<String> nodes = List.of(nodePrefix + "-0", nodePrefix + "-1");
    Resource<GenericKubernetesResource> admissionCheck = client.resource(Serialization.unmarshal("""
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: AdmissionCheck
        metadata: {name: %s}
        spec: {controllerName: %s}
        """.formatted(check, AdmissionCheck.KOORD4J_CONTROLLER), GenericKubernetesResource.class));
    try (TestCluster cluster = new TestCluster(client, "it-gang-check")) {
      LocalCluster.script("nodes", "--count", "2", "--cpu", "96", "--memory", "1Ti", "--gpus", "8",
          "--gpu-model", "H100", "--prefix", nodePrefix);
      nodes.forEach(node -> LocalCluster.labelNode(client, node, Map.of(POOL_LABEL, run)));
      admissionCheck.create();
      cluster.queue("leaf", "Priority", List.of(check));
      String top = cluster.quota("top", null, true, "8", "8");
      String leaf = cluster.quota("leaf", top, false, "8", "8");
      Pod holder = client.resource(gpuPod(cluster.namespace, nodes.get(1))).create();
      client.resource(cluster.jobOf("train", leaf, 2, "1", "1h", pod -> pod
          .addToNodeSelector(POOL_LABEL, run)
          .editFirstContainer().editResources()
          .addToRequests("nvidia.com/gpu", new Quantity("8"))
          .addToLimits("nvidia.com/gpu", new Quantity("8"))
          .endResources().endContainer())).create();

      AdmissionCheckState waiting = await().atMost(TIMEOUT).until(() -> ourCheck(cluster, check),
          state -> state != null && state.getMessage().startsWith("waiting for room"));
      assertThat(waiting.getState()).isEqualTo(AdmissionCheckState.PENDING);
      assertThat(waiting.getMessage()).contains("pod set main: 1 of 2 pods placed");
      assertThat(cluster.phase("train")).isEqualTo(QueueUnitPhase.RESERVED);
      assertThat(cluster.job("train").getSpec().getSuspend()).as("the job waits for the check").isTrue();

      InProcessManager.stop();
      InProcessManager.ensureRunning();
      await("the restarted check decides the waiting unit again").atMost(TIMEOUT)
          .until(() -> InProcessManager.manager().unitChecks().decisionPasses() >= 1);
      AdmissionCheckState afterRestart = ourCheck(cluster, check);
      assertThat(cluster.phase("train")).as("a restart neither admits nor forgets").isEqualTo(QueueUnitPhase.RESERVED);
      assertThat(afterRestart.getState()).isEqualTo(waiting.getState());
      assertThat(afterRestart.getMessage()).isEqualTo(waiting.getMessage());
      assertThat(afterRestart.getLastTransitionTime()).isEqualTo(waiting.getLastTransitionTime());

      client.resource(holder).withGracePeriod(0).delete();

      await().atMost(TIMEOUT).until(() -> ourCheck(cluster, check).getState(), AdmissionCheckState.READY::equals);
      await().atMost(TIMEOUT).until(() -> cluster.resumed("train"));
      await().atMost(TIMEOUT).until(() -> client.pods().inNamespace(cluster.namespace).withLabel("job-name", "train")
          .list().getItems().stream().filter(pod -> "Running".equals(pod.getStatus().getPhase())).count() == 2);
    } finally {
      admissionCheck.delete();
      nodes.forEach(node -> client.nodes().withName(node).delete());
    }
  }

  private static AdmissionCheckState ourCheck(TestCluster cluster, String check) {
    QueueUnit unit = cluster.unit("train");
    return unit == null || unit.getStatus() == null || unit.getStatus().getAdmissionChecks() == null
        ? null
        : unit.getStatus().getAdmissionChecks().stream()
            .filter(state -> check.equals(state.getName())).findFirst().orElse(null);
  }

  private static Pod gpuPod(String namespace, String node) {
    return new PodBuilder()
        .withNewMetadata().withName("holder").withNamespace(namespace).endMetadata()
        .withNewSpec().withNodeName(node)
        .addNewContainer().withName("work").withImage("busybox")
        .withNewResources().addToRequests("nvidia.com/gpu", new Quantity("4"))
        .addToLimits("nvidia.com/gpu", new Quantity("4")).endResources().endContainer()
        .endSpec().build();
  }
}
