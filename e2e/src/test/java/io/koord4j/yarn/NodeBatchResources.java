package io.koord4j.yarn;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.Operator;
import io.koord4j.api.WellKnown;
import io.koord4j.api.slo.NodeMetric;
import io.koord4j.manager.noderesource.BatchResourceReconciler;
import io.koord4j.manager.noderesource.ColocationConfig;
import io.koord4j.testing.LocalCluster;
import io.koord4j.yarn.sync.BatchResources;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

/**
 * The manager's batch-resources controller for the nodes labelled {@code label=value}, in this
 * JVM: each node offers half its CPU and memory as batch resources, less its system usage (written
 * here as koordlet would) and less what third parties (YARN) hold there.
 */
final class NodeBatchResources implements AutoCloseable {
  private final KubernetesClient client;
  private final Operator operator;

  private NodeBatchResources(KubernetesClient client, Operator operator) {
    this.client = client;
    this.operator = operator;
  }

  static NodeBatchResources start(KubernetesClient client, String namespace, String label, String value) {
    LocalCluster.ensureCrds(client, "nodemetrics.slo.koordinator.sh");
    client.resource(new ConfigMapBuilder().withNewMetadata().withName(ColocationConfig.CONFIG_MAP).withNamespace(namespace)
        .endMetadata().addToData(ColocationConfig.KEY, """
            {"enable": true, "cpuReclaimThresholdPercent": 50, "memoryReclaimThresholdPercent": 50}
            """).build()).create();
    BatchResourceReconciler reconciler = BatchResourceReconciler.forCluster(
            client, Map.of(BatchResourceReconciler.SWITCH, "true", "KOORD4J_SLO_CONFIG_NAMESPACE", namespace), Clock.systemUTC())
        .orElseThrow();
    Operator operator = new Operator(o -> o.withKubernetesClient(client).withCloseClientOnStop(false));
    operator.register(reconciler, c -> c.withName(BatchResourceReconciler.NAME + "-" + value).withLabelSelector(label + "=" + value));
    operator.start();
    return new NodeBatchResources(client, operator);
  }

  /** Reports the node's system usage now, as koordlet does; a fresh report keeps its batch resources. */
  void systemUsage(String node, BatchResources usage) {
    if (client.resources(NodeMetric.class).withName(node).get() == null) {
      NodeMetric metric = new NodeMetric();
      metric.getMetadata().setName(node);
      client.resource(metric).create();
    }
    Map<String, Object> resources = Map.of("cpu", usage.milliCpu() + "m", "memory", Long.toString(usage.memoryBytes()));
    Map<String, Object> status = Map.of(
        "updateTime", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(),
        "nodeMetric", Map.of("nodeUsage", Map.of("resources", resources), "systemUsage", Map.of("resources", resources)),
        "podsMetric", List.of());
    client.resources(NodeMetric.class).withName(node).subresource("status")
        .patch(PatchContext.of(PatchType.JSON_MERGE), Serialization.asJson(Map.of("status", status)));
  }

  /** The node's batch resources as Kubernetes schedulers see them, or null while it has none. */
  BatchResources allocatable(String node) {
    Map<String, Quantity> allocatable = client.nodes().withName(node).get().getStatus().getAllocatable();
    Quantity cpu = allocatable.get(WellKnown.BATCH_CPU);
    Quantity memory = allocatable.get(WellKnown.BATCH_MEMORY);
    return cpu == null || memory == null
        ? null
        : new BatchResources(Quantity.getAmountInBytes(cpu).longValue(), Quantity.getAmountInBytes(memory).longValue());
  }

  void deleteMetric(String node) {
    client.resources(NodeMetric.class).withName(node).delete();
  }

  @Override
  public void close() {
    operator.stop();
  }
}
