package io.koord4j.koordlet.states;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.koord4j.api.slo.NodeMetric;
import io.koord4j.api.slo.NodeSLO;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What koordlet knows of the cluster, kept current by informers that watch only this node: its
 * Node, the pods bound to it ({@code spec.nodeName}), its NodeSLO and its NodeMetric.
 */
public final class NodeStates implements NodeView, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(NodeStates.class);

  private final String nodeName;
  private final SharedIndexInformer<Node> node;
  private final SharedIndexInformer<Pod> pods;
  private final SharedIndexInformer<NodeSLO> nodeSlo;
  private final SharedIndexInformer<NodeMetric> nodeMetric;

  private NodeStates(
      String nodeName,
      SharedIndexInformer<Node> node,
      SharedIndexInformer<Pod> pods,
      SharedIndexInformer<NodeSLO> nodeSlo,
      SharedIndexInformer<NodeMetric> nodeMetric) {
    this.nodeName = nodeName;
    this.node = node;
    this.pods = pods;
    this.nodeSlo = nodeSlo;
    this.nodeMetric = nodeMetric;
  }

  /** Starts the informers and returns once each has listed its objects. */
  public static NodeStates start(KubernetesClient client, String nodeName) {
    SharedIndexInformer<Node> node = client.nodes().withName(nodeName).inform();
    SharedIndexInformer<Pod> pods = client.pods().inAnyNamespace().withField("spec.nodeName", nodeName).inform();
    SharedIndexInformer<NodeSLO> nodeSlo = optional(client, NodeSLO.class, nodeName);
    SharedIndexInformer<NodeMetric> nodeMetric = optional(client, NodeMetric.class, nodeName);
    return new NodeStates(nodeName, node, pods, nodeSlo, nodeMetric);
  }

  /** An informer on a CRD that may not be installed; koordlet then runs on defaults. */
  private static <T extends io.fabric8.kubernetes.api.model.HasMetadata> SharedIndexInformer<T> optional(
      KubernetesClient client, Class<T> type, String nodeName) {
    if (!client.supports(type)) {
      LOG.warn("{} is not installed; running on its defaults", io.fabric8.kubernetes.api.model.HasMetadata.getFullResourceName(type));
      return null;
    }
    return client.resources(type).withName(nodeName).inform();
  }

  public String nodeName() {
    return nodeName;
  }

  @Override
  public Optional<Node> node() {
    return node.getStore().list().stream().findFirst();
  }

  @Override
  public List<Pod> pods() {
    return new ArrayList<>(pods.getStore().list());
  }

  @Override
  public Optional<NodeSLO> nodeSlo() {
    return nodeSlo == null ? Optional.empty() : nodeSlo.getStore().list().stream().findFirst();
  }

  public Optional<NodeMetric> nodeMetric() {
    return nodeMetric == null ? Optional.empty() : nodeMetric.getStore().list().stream().findFirst();
  }

  /** Whether every informer still watches (for /healthz). */
  public boolean watching() {
    return node.isWatching()
        && pods.isWatching()
        && (nodeSlo == null || nodeSlo.isWatching())
        && (nodeMetric == null || nodeMetric.isWatching());
  }

  @Override
  public void close() {
    node.close();
    pods.close();
    if (nodeSlo != null) {
      nodeSlo.close();
    }
    if (nodeMetric != null) {
      nodeMetric.close();
    }
  }
}
