package io.koord4j.yarn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.koord4j.api.WellKnown;
import io.koord4j.yarn.sync.BatchResources;
import io.koord4j.yarn.sync.NodeManagerId;
import io.koord4j.yarn.sync.NodeView;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Nodes and pods from informer caches, turned into what the copilot plans with: each node's
 * NodeManager (by its pod's node id annotation) and YARN's share of its batch resources.
 */
final class KubeView implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KubeView.class);

  static final String COMPONENT_LABEL = "app.kubernetes.io/component";
  static final String NODE_MANAGER = "node-manager";

  private static final String BY_NODE = "spec.nodeName";
  /** The index key of pods not bound to a node yet. */
  private static final String UNBOUND = "";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final SharedIndexInformer<Node> nodes;
  private final SharedIndexInformer<Pod> pods;

  private KubeView(SharedIndexInformer<Node> nodes, SharedIndexInformer<Pod> pods) {
    this.nodes = nodes;
    this.pods = pods;
  }

  /** Starts the informers and waits until their caches hold the cluster. */
  static KubeView start(KubernetesClient client) {
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
    return new KubeView(nodes, pods);
  }

  /** Every node with its NodeManager and YARN share; nodes whose NodeManager pod is invalid are left out. */
  List<NodeView> nodes() {
    List<Pod> waiting =
        pods.getIndexer().byIndex(BY_NODE, UNBOUND).stream()
            .filter(pod -> "Pending".equals(phase(pod)) && pod.getMetadata().getDeletionTimestamp() == null)
            .filter(pod -> !batchRequests(pod).equals(BatchResources.ZERO))
            .toList();
    return nodes.getStore().list().stream().map(node -> view(node, waiting)).flatMap(Optional::stream).toList();
  }

  private Optional<NodeView> view(Node node, List<Pod> waiting) {
    String name = node.getMetadata().getName();
    List<Pod> onNode =
        pods.getIndexer().byIndex(BY_NODE, name).stream().filter(KubeView::holdsResources).toList();
    Optional<Pod> nodeManager =
        onNode.stream()
            .filter(KubeView::isNodeManager)
            .min(Comparator.comparing(pod -> pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName()));
    Optional<NodeManagerId> id;
    try {
      id = nodeManager.map(KubeView::nodeManagerId);
    } catch (IllegalArgumentException e) {
      LOG.error("node {}: NodeManager pod {}: {}", name, Cache.metaNamespaceKeyFunc(nodeManager.get()), e.getMessage());
      return Optional.empty();
    }
    BatchResources requested =
        onNode.stream()
            .filter(pod -> !isNodeManager(pod))
            .map(KubeView::batchRequests)
            .reduce(BatchResources.ZERO, BatchResources::plus);
    String allocations = annotations(node).get(WellKnown.THIRD_PARTY_ALLOCATIONS);
    BatchResources share = origin(node).minus(requested);
    // A pod that would not fit even if YARN held nothing here does not make YARN yield.
    boolean batchPodsWaiting = waiting.stream().anyMatch(pod -> mayGoTo(pod, node) && batchRequests(pod).fitsIn(share));
    return Optional.of(new NodeView(name, id, share, allocations, batchPodsWaiting));
  }

  /** By the pod's node selector; other constraints are not weighed, so YARN yields to more pods than it must. */
  static boolean mayGoTo(Pod pod, Node node) {
    Map<String, String> selector = pod.getSpec().getNodeSelector();
    Map<String, String> labels = node.getMetadata().getLabels();
    return selector == null
        || selector.isEmpty()
        || (labels != null && labels.entrySet().containsAll(selector.entrySet()));
  }

  private static NodeManagerId nodeManagerId(Pod pod) {
    Map<String, String> annotations = pod.getMetadata().getAnnotations();
    return NodeManagerId.parse(
        annotations == null ? null : annotations.get(NodeManagerId.CLUSTER_ID_ANNOTATION),
        annotations == null ? null : annotations.get(NodeManagerId.NODE_ID_ANNOTATION));
  }

  private static boolean isNodeManager(Pod pod) {
    Map<String, String> labels = pod.getMetadata().getLabels();
    return labels != null && NODE_MANAGER.equals(labels.get(COMPONENT_LABEL));
  }

  /** Finished pods hold nothing on their node any more. */
  private static boolean holdsResources(Pod pod) {
    String phase = phase(pod);
    return !"Succeeded".equals(phase) && !"Failed".equals(phase);
  }

  private static String phase(Pod pod) {
    return pod.getStatus() == null ? null : pod.getStatus().getPhase();
  }

  /**
   * The node's batch resources before any third party took its share: Koordinator's origin record
   * when the batch-resources controller keeps one, otherwise the node's allocatable.
   */
  static BatchResources origin(Node node) {
    String origin = annotations(node).get(WellKnown.ORIGIN_EXTENDED_ALLOCATABLE);
    if (origin != null) {
      try {
        JsonNode resources = JSON.readTree(origin).path("resources");
        return new BatchResources(
            amount(resources.path(WellKnown.BATCH_CPU).asText(null)),
            amount(resources.path(WellKnown.BATCH_MEMORY).asText(null)));
      } catch (Exception e) {
        LOG.warn("node {}: annotation {} is not valid JSON; using allocatable", node.getMetadata().getName(), WellKnown.ORIGIN_EXTENDED_ALLOCATABLE);
      }
    }
    return allocatable(node);
  }

  private static BatchResources allocatable(Node node) {
    Map<String, Quantity> allocatable =
        node.getStatus() == null || node.getStatus().getAllocatable() == null
            ? Map.of()
            : node.getStatus().getAllocatable();
    return batch(allocatable::get);
  }

  private static BatchResources batchRequests(Pod pod) {
    return pod.getSpec().getContainers().stream()
        .map(KubeView::batchRequests)
        .reduce(BatchResources.ZERO, BatchResources::plus);
  }

  /** Extended resources have equal requests and limits; a container may state only the limit. */
  private static BatchResources batchRequests(Container container) {
    if (container.getResources() == null) {
      return BatchResources.ZERO;
    }
    Map<String, Quantity> requests = orEmpty(container.getResources().getRequests());
    Map<String, Quantity> limits = orEmpty(container.getResources().getLimits());
    return batch(name -> requests.getOrDefault(name, limits.get(name)));
  }

  private static BatchResources batch(Function<String, Quantity> quantity) {
    return new BatchResources(
        amount(quantity.apply(WellKnown.BATCH_CPU)), amount(quantity.apply(WellKnown.BATCH_MEMORY)));
  }

  private static long amount(Quantity quantity) {
    return quantity == null ? 0 : Quantity.getAmountInBytes(quantity).longValue();
  }

  private static long amount(String quantity) {
    return quantity == null ? 0 : amount(new Quantity(quantity));
  }

  private static Map<String, Quantity> orEmpty(Map<String, Quantity> map) {
    return map == null ? Map.of() : map;
  }

  private static Map<String, String> annotations(Node node) {
    Map<String, String> annotations = node.getMetadata().getAnnotations();
    return annotations == null ? Map.of() : annotations;
  }

  @Override
  public void close() {
    nodes.close();
    pods.close();
  }
}
