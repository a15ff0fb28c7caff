package io.koord4j.kueue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.kueue.AdmissionCheckState;
import io.koord4j.api.kueue.KueueObject;
import io.koord4j.api.kueue.Workload;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Nodes, pods and workloads as the informers would hand them over. */
final class KueueFixtures {
  static final String CHECK = "gang-check";
  static final Instant NOW = Instant.parse("2025-01-01T12:00:00Z");

  private KueueFixtures() {}

  /** A Ready node with 96 CPU, 1 TiB and {@code gpus} nvidia.com/gpu, no Device object. */
  static Node gpuNode(String name, int gpus) {
    return new NodeBuilder()
        .withNewMetadata().withName(name).addToLabels("pool", "gpu").endMetadata()
        .withNewStatus()
        .addToAllocatable("cpu", new Quantity("96"))
        .addToAllocatable("memory", new Quantity("1Ti"))
        .addToAllocatable("pods", new Quantity("110"))
        .addToAllocatable("nvidia.com/gpu", new Quantity(Integer.toString(gpus)))
        .addNewCondition().withType("Ready").withStatus("True").endCondition()
        .endStatus()
        .build();
  }

  /** A running pod bound to {@code node} holding whole GPUs by request only. */
  static Pod gpuPod(String name, String node, int gpus) {
    return new PodBuilder()
        .withNewMetadata().withName(name).withNamespace("other").endMetadata()
        .withNewSpec().withNodeName(node)
        .addNewContainer().withName("work")
        .withNewResources().addToRequests("cpu", new Quantity("1"))
        .addToRequests("nvidia.com/gpu", new Quantity(Integer.toString(gpus))).endResources()
        .endContainer().endSpec()
        .withNewStatus().withPhase("Running").endStatus()
        .build();
  }

  /**
   * A workload with one pod set of {@code count} pods of {@code gpus} GPUs, quota reserved, with
   * our check in {@code state} since {@code since}.
   */
  static Workload workload(String name, int count, int gpus, String state, Instant since) {
    String yaml = """
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: Workload
        metadata: {name: %s, namespace: team, creationTimestamp: "2025-01-01T11:00:00Z"}
        spec:
          queueName: lq
          podSets:
          - name: main
            count: %d
            template:
              spec:
                nodeSelector: {pool: gpu}
                containers:
                - name: work
                  resources:
                    requests: {cpu: "4", nvidia.com/gpu: "%d"}
        status:
          conditions:
          - {type: QuotaReserved, status: "True", reason: QuotaReserved, message: "", lastTransitionTime: "%s"}
          admissionChecks:
          - {name: other-check, state: Pending, message: "", lastTransitionTime: "%s"}
          - {name: %s, state: %s, message: "", lastTransitionTime: "%s", retryCount: 2}
        """.formatted(name, count, gpus, since, since, CHECK, state, since);
    return KueueObject.from(Serialization.unmarshal(yaml, GenericKubernetesResource.class), Workload.class);
  }

  static WaitingWorkload waiting(Workload workload) {
    return WaitingWorkload.of(workload, Set.of(CHECK)).orElseThrow();
  }

  static AdmissionCheckState ours(Workload workload) {
    return workload.getStatus().getAdmissionChecks().stream()
        .filter(check -> CHECK.equals(check.getName())).findFirst().orElseThrow();
  }

  static ClusterSnapshot cluster(List<Node> nodes, List<Pod> pods) {
    return ClusterSnapshot.of(nodes, pods, Map.of());
  }
}
