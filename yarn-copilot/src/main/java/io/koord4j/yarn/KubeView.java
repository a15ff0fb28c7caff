package io.koord4j.yarn;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.koord4j.yarn.sync.NodeView;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Nodes and pods from informer caches, read into what the copilot plans with by {@link NodeViews};
 * what a reading leaves out is logged when it starts or its reason changes, not every round.
 */
final class KubeView implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KubeView.class);

  private static final String BY_NODE = "spec.nodeName";
  /** The index key of pods not bound to a node yet. */
  private static final String UNBOUND = "";

  private final SharedIndexInformer<Node> nodes;
  private final SharedIndexInformer<Pod> pods;
  private final NodeManagerPolicy nodeManagers;
  private Map<String, String> logged = Map.of();

  private KubeView(SharedIndexInformer<Node> nodes, SharedIndexInformer<Pod> pods, NodeManagerPolicy nodeManagers) {
    this.nodes = nodes;
    this.pods = pods;
    this.nodeManagers = nodeManagers;
  }

  /** Starts the informers and waits until their caches hold the cluster. */
  static KubeView start(KubernetesClient client, NodeManagerPolicy nodeManagers) {
    SharedIndexInformer<Node> nodes = client.nodes().runnableInformer(0);
    SharedIndexInformer<Pod> pods = client.pods().inAnyNamespace().runnableInformer(0);
    pods.addIndexers(Map.of(BY_NODE, pod -> List.of(Objects.requireNonNullElse(pod.getSpec().getNodeName(), UNBOUND))));
    try {
      CompletableFuture.allOf(
              nodes.start().toCompletableFuture(), pods.start().toCompletableFuture())
          .get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      nodes.close();
      pods.close();
      throw new IllegalStateException("cannot list nodes and pods: " + e.getMessage(), e);
    }
    return new KubeView(nodes, pods, nodeManagers);
  }

  /** Every node with its NodeManager and YARN share, but those {@link NodeViews} leaves out. */
  List<NodeView> nodes() {
    NodeViews.Reading reading =
        NodeViews.read(
            nodeManagers,
            nodes.getStore().list(),
            node -> pods.getIndexer().byIndex(BY_NODE, node),
            pods.getIndexer().byIndex(BY_NODE, UNBOUND));
    logNew(reading.warnings());
    return reading.nodes();
  }

  /** Each round of each cluster reads the same pods: a warning is logged once, until it changes. */
  private synchronized void logNew(Map<String, String> warnings) {
    warnings.forEach(
        (subject, why) -> {
          if (!why.equals(logged.get(subject))) {
            LOG.warn("{}: {}", subject, why);
          }
        });
    logged = Map.copyOf(warnings);
  }

  @Override
  public void close() {
    nodes.close();
    pods.close();
  }
}
