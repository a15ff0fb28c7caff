package io.koord4j.manager.noderesource;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.WellKnown;
import io.koord4j.api.slo.NodeMetric;
import io.koord4j.manager.support.SharedInformers;
import io.koord4j.testing.LocalCluster;
import io.koord4j.yarn.sync.BatchResources;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

/**
 * The manager's batch-resources controller for the nodes labelled {@code label=value}, in this
 * JVM: each node offers the given share of its CPU and memory as batch resources, less its system
 * and high-priority usage (written here as koordlet would, or by koordlet itself) and less what third
 * parties (YARN) hold there.
 */
public final class NodeBatchResources implements AutoCloseable {
  private final KubernetesClient client;
  private final SharedInformers informers;
  private final BatchResourceReconciler reconciler;

  private NodeBatchResources(KubernetesClient client, SharedInformers informers, BatchResourceReconciler reconciler) {
    this.client = client;
    this.informers = informers;
    this.reconciler = reconciler;
  }

  /** Starts it with colocation on for the labelled nodes only, reclaiming {@code cpuPercent} and {@code memoryPercent}. */
  public static NodeBatchResources start(
      KubernetesClient client, String namespace, String label, String value, int cpuPercent, int memoryPercent) {
    LocalCluster.ensureCrds(client, "nodemetrics.slo.koordinator.sh");
    // Colocation on for the test's nodes only: the shared cluster's other nodes get no batch resources.
    client.resource(new ConfigMapBuilder().withNewMetadata().withName(ColocationConfig.CONFIG_MAP).withNamespace(namespace)
        .endMetadata().addToData(ColocationConfig.KEY, """
            {"enable": false,
             "nodeConfigs": [{"name": "it", "nodeSelector": {"matchLabels": {"%s": "%s"}},
                              "enable": true, "cpuReclaimThresholdPercent": %d, "memoryReclaimThresholdPercent": %d}]}
            """.formatted(label, value, cpuPercent, memoryPercent)).build()).create();
    SharedInformers informers = new SharedInformers(client);
    BatchResourceReconciler reconciler = BatchResourceReconciler.forCluster(client, informers,
            Map.of(BatchResourceReconciler.SWITCH, "true", "KOORD4J_SLO_CONFIG_NAMESPACE", namespace), Clock.systemUTC())
        .orElseThrow();
    reconciler.start();
    return new NodeBatchResources(client, informers, reconciler);
  }

  /** Reports the node's system usage now, as koordlet does; a fresh report keeps its batch resources. */
  public void systemUsage(String node, BatchResources usage) {
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
  public BatchResources allocatable(String node) {
    Map<String, Quantity> allocatable = client.nodes().withName(node).get().getStatus().getAllocatable();
    Quantity cpu = allocatable.get(WellKnown.BATCH_CPU);
    Quantity memory = allocatable.get(WellKnown.BATCH_MEMORY);
    return cpu == null || memory == null
        ? null
        : new BatchResources(Quantity.getAmountInBytes(cpu).longValue(), Quantity.getAmountInBytes(memory).longValue());
  }

  public void deleteMetric(String node) {
    client.resources(NodeMetric.class).withName(node).delete();
  }

  @Override
  public void close() {
    reconciler.close();
    informers.close();
  }
}
