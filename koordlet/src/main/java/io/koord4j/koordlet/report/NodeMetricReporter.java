package io.koord4j.koordlet.report;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.slo.MetricCollectPolicy;
import io.koord4j.api.slo.NodeMetric;
import io.koord4j.api.slo.NodeMetricSpec;
import io.koord4j.api.slo.NodeMetricStatus;
import io.koord4j.koordlet.metrics.Aggregation;
import io.koord4j.koordlet.metrics.UsageCollector;
import io.koord4j.koordlet.states.NodeStates;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Writes this node's NodeMetric status from the collector's series, creating the object if needed. */
public final class NodeMetricReporter {
  private static final Logger LOG = LoggerFactory.getLogger(NodeMetricReporter.class);

  private final KubernetesClient client;
  private final NodeStates states;
  private final UsageCollector collector;
  private final Clock clock;

  public NodeMetricReporter(KubernetesClient client, NodeStates states, UsageCollector collector, Clock clock) {
    this.client = client;
    this.states = states;
    this.collector = collector;
    this.clock = clock;
  }

  /** The policy in the NodeMetric's spec, or Koordinator's defaults. */
  public CollectPolicy policy() {
    return CollectPolicy.of(states.nodeMetric().orElse(null));
  }

  /** One report; false when there is nothing measured yet or the node is unknown. */
  public boolean report() {
    Optional<Node> node = states.node();
    CollectPolicy policy = policy();
    Optional<NodeMetricStatuses.Measured> measured = measure(policy);
    if (node.isEmpty() || measured.isEmpty()) {
      return false;
    }
    if (states.nodeMetric().isEmpty()) {
      create(node.get());
    }
    NodeMetricStatus status = NodeMetricStatuses.build(clock.instant(), measured.get(), states.pods());
    client.resources(NodeMetric.class)
        .withName(states.nodeName())
        .subresource("status")
        .patch(PatchContext.of(PatchType.JSON_MERGE), Serialization.asJson(Map.of("status", status)));
    return true;
  }

  private Optional<NodeMetricStatuses.Measured> measure(CollectPolicy policy) {
    return collector.nodeAverage(policy.aggregateDuration())
        .map(average -> new NodeMetricStatuses.Measured(
            average, windows(policy), collector.podsAverage(policy.aggregateDuration())));
  }

  private List<NodeMetricStatuses.WindowUsage> windows(CollectPolicy policy) {
    List<NodeMetricStatuses.WindowUsage> windows = new ArrayList<>();
    for (Duration window : policy.windows()) {
      Optional<Aggregation> cpu = collector.nodeCpu(window);
      Optional<Aggregation> memory = collector.nodeMemory(window);
      if (cpu.isPresent() && memory.isPresent()) {
        windows.add(new NodeMetricStatuses.WindowUsage(window, cpu.get(), memory.get()));
      }
    }
    return windows;
  }

  /** Owned by the Node, so that it goes when the node does. */
  private void create(Node node) {
    NodeMetric nodeMetric = new NodeMetric();
    nodeMetric.getMetadata().setName(states.nodeName());
    nodeMetric.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder()
        .withApiVersion("v1").withKind("Node").withName(node.getMetadata().getName())
        .withUid(node.getMetadata().getUid()).build()));
    MetricCollectPolicy policy = new MetricCollectPolicy();
    policy.setAggregateDurationSeconds(CollectPolicy.DEFAULT.aggregateDuration().toSeconds());
    policy.setReportIntervalSeconds(CollectPolicy.DEFAULT.reportInterval().toSeconds());
    NodeMetricSpec spec = new NodeMetricSpec();
    spec.setMetricCollectPolicy(policy);
    nodeMetric.setSpec(spec);
    try {
      client.resource(nodeMetric).create();
      LOG.info("created NodeMetric {}", states.nodeName());
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
    }
  }
}
