package io.koord4j.yarn;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import io.koord4j.jobs.PodRequests;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.yarn.sync.BatchResources;
import io.koord4j.yarn.sync.NodeManagerId;
import io.koord4j.yarn.sync.NodeView;
import java.math.BigDecimal;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What the copilot plans with, read from nodes and pods without I/O: each node's NodeManager and
 * YARN's share of its batch resources. What it cannot take is left out with a warning, so that one
 * pod never stops the sync of the others.
 */
final class NodeViews {
  static final String COMPONENT_LABEL = "app.kubernetes.io/component";
  static final String NODE_MANAGER = "node-manager";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> BATCH = List.of(WellKnown.BATCH_CPU, WellKnown.BATCH_MEMORY);
  private static final Comparator<Pod> BY_NAME = Comparator.comparing(NodeViews::name);

  /**
   * @param warnings what was left out and why, by subject ({@code pod <namespace>/<name>} or
   *     {@code node <name>})
   */
  record Reading(List<NodeView> nodes, Map<String, String> warnings) {}

  private final NodeManagerPolicy nodeManagers;
  private final Map<String, String> warnings = new TreeMap<>();

  private NodeViews(NodeManagerPolicy nodeManagers) {
    this.nodeManagers = nodeManagers;
  }

  /**
   * @param podsOn the pods bound to a node, by node name
   * @param unbound the pods not bound to a node yet
   */
  static Reading read(
      NodeManagerPolicy nodeManagers, List<Node> nodes, Function<String, List<Pod>> podsOn, List<Pod> unbound) {
    NodeViews reading = new NodeViews(nodeManagers);
    List<Waiting> waiting = reading.waiting(unbound);
    List<NodeView> views =
        nodes.stream()
            .map(node -> reading.view(node, podsOn.apply(node.getMetadata().getName()), waiting))
            .flatMap(Optional::stream)
            .toList();
    return new Reading(views, Collections.unmodifiableMap(reading.warnings));
  }

  /** A pod waiting to be scheduled, with the batch resources it asks for. */
  private record Waiting(Pod pod, BatchResources requests) {}

  private List<Waiting> waiting(List<Pod> unbound) {
    return unbound.stream()
        .filter(pod -> "Pending".equals(phase(pod)) && pod.getMetadata().getDeletionTimestamp() == null)
        .flatMap(pod -> batchRequests(pod).map(requests -> new Waiting(pod, requests)).stream())
        .filter(waiting -> !waiting.requests().equals(BatchResources.ZERO))
        .toList();
  }

  /**
   * Empty, with a warning, for a node whose NodeManager pod names a node id it cannot have or whose
   * batch allocatable cannot be read.
   */
  private Optional<NodeView> view(Node node, List<Pod> pods, List<Waiting> waiting) {
    String name = node.getMetadata().getName();
    Map<Boolean, List<Pod>> byRole =
        pods.stream().filter(NodeViews::holdsResources).collect(Collectors.partitioningBy(this::isNodeManager));
    Optional<Pod> nodeManager = byRole.get(true).stream().min(BY_NAME);
    Optional<NodeManagerId> id;
    BatchResources origin;
    try {
      id = nodeManager.map(pod -> nodeManagerId(pod, node));
      origin = origin(node);
    } catch (IllegalArgumentException e) {
      warn("node " + name, "left as it is: " + e.getMessage());
      return Optional.empty();
    }
    BatchResources share = origin.minus(requested(byRole.get(false)));
    // A pod that would not fit even if YARN held nothing here does not make YARN yield.
    boolean batchPodsWaiting =
        waiting.stream().anyMatch(candidate -> mayGoTo(candidate.pod(), node) && candidate.requests().fitsIn(share));
    String allocations = annotations(node).get(WellKnown.THIRD_PARTY_ALLOCATIONS);
    return Optional.of(new NodeView(name, id, share, allocations, batchPodsWaiting));
  }

  /** What the pods ask of the node's batch resources; a pod that cannot be read is left out. */
  private BatchResources requested(List<Pod> pods) {
    return pods.stream()
        .flatMap(pod -> batchRequests(pod).stream())
        .reduce(BatchResources.ZERO, BatchResources::plus);
  }

  /**
   * Whether the pod is labelled as a NodeManager and the policy takes it as one; a labelled pod it
   * refuses is an ordinary pod, whose batch requests count against YARN's share.
   */
  private boolean isNodeManager(Pod pod) {
    Map<String, String> labels = pod.getMetadata().getLabels();
    if (labels == null || !NODE_MANAGER.equals(labels.get(COMPONENT_LABEL))) {
      return false;
    }
    Optional<String> refusal = nodeManagers.refusal(pod);
    refusal.ifPresent(why -> warn("pod " + name(pod), "not taken as a NodeManager: " + why));
    return refusal.isEmpty();
  }

  /**
   * The node id the pod's annotations name, which must be on the pod's own node: otherwise the
   * pod would hand this node's room to another node's NodeManager.
   *
   * @throws IllegalArgumentException naming the annotation and what is wrong with it
   */
  private static NodeManagerId nodeManagerId(Pod pod, Node node) {
    Map<String, String> annotations = pod.getMetadata().getAnnotations();
    String where = "NodeManager pod " + name(pod) + ": ";
    NodeManagerId id;
    try {
      id = NodeManagerId.parse(
          annotations == null ? null : annotations.get(NodeManagerId.CLUSTER_ID_ANNOTATION),
          annotations == null ? null : annotations.get(NodeManagerId.NODE_ID_ANNOTATION));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + e.getMessage(), e);
    }
    if (!isHostOf(id.host(), node)) {
      throw new IllegalArgumentException(
          where + "annotation " + NodeManagerId.NODE_ID_ANNOTATION + " names host " + id.host()
              + ", which is neither the name nor an address of node " + node.getMetadata().getName());
    }
    return id;
  }

  /** The node's name or one of its addresses (hostname, IP or DNS name), ignoring case. */
  static boolean isHostOf(String host, Node node) {
    List<NodeAddress> addresses =
        node.getStatus() == null || node.getStatus().getAddresses() == null
            ? List.of()
            : node.getStatus().getAddresses();
    return host.equalsIgnoreCase(node.getMetadata().getName())
        || addresses.stream().anyMatch(address -> host.equalsIgnoreCase(address.getAddress()));
  }

  /** By the pod's node selector; other constraints are not weighed, so YARN yields to more pods than it must. */
  static boolean mayGoTo(Pod pod, Node node) {
    Map<String, String> selector = pod.getSpec().getNodeSelector();
    Map<String, String> labels = node.getMetadata().getLabels();
    return selector == null
        || selector.isEmpty()
        || (labels != null && labels.entrySet().containsAll(selector.entrySet()));
  }

  /** Finished pods hold nothing on their node any more. */
  private static boolean holdsResources(Pod pod) {
    String phase = phase(pod);
    return !"Succeeded".equals(phase) && !"Failed".equals(phase);
  }

  private static String phase(Pod pod) {
    return pod.getStatus() == null ? null : pod.getStatus().getPhase();
  }

  private static String name(Pod pod) {
    return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
  }

  /**
   * The node's batch resources before any third party took its share: Koordinator's origin record
   * when the batch-resources controller keeps one that can be read, otherwise the node's
   * allocatable.
   *
   * @throws IllegalArgumentException naming the field when the allocatable cannot be read
   */
  private BatchResources origin(Node node) {
    String origin = annotations(node).get(WellKnown.ORIGIN_EXTENDED_ALLOCATABLE);
    if (origin != null) {
      String where = "annotation " + WellKnown.ORIGIN_EXTENDED_ALLOCATABLE;
      try {
        JsonNode resources = JSON.readTree(origin).path("resources");
        return batch(resource -> resources.path(resource).asText(null), where + ": resources");
      } catch (JsonProcessingException e) {
        warn("node " + node.getMetadata().getName(), where + " is not valid JSON; using allocatable");
      } catch (IllegalArgumentException e) {
        warn("node " + node.getMetadata().getName(), e.getMessage() + "; using allocatable");
      }
    }
    Map<String, Quantity> allocatable =
        node.getStatus() == null || node.getStatus().getAllocatable() == null
            ? Map.of()
            : node.getStatus().getAllocatable();
    return batch(resource -> Objects.toString(allocatable.get(resource), null), "status.allocatable");
  }

  /** The batch resources among quantities written as text, each read within the codec's bounds. */
  private static BatchResources batch(Function<String, String> quantities, String where) {
    Map<String, BigDecimal> amounts = new TreeMap<>();
    for (String resource : BATCH) {
      String quantity = quantities.apply(resource);
      if (quantity != null) {
        amounts.put(resource, ResourceQuantities.amount(quantity, where + "[" + resource + "]"));
      }
    }
    return BatchResources.of(amounts);
  }

  /**
   * The pod's batch requests as the scheduler counts them; empty, with a warning naming the field,
   * when a quantity of the pod cannot be read, so that the pod is left out of this round alone.
   */
  private Optional<BatchResources> batchRequests(Pod pod) {
    try {
      return Optional.of(BatchResources.of(PodRequests.of(pod.getSpec(), "spec")));
    } catch (IllegalArgumentException e) {
      warn("pod " + name(pod), "left out of this round: " + e.getMessage());
      return Optional.empty();
    }
  }

  private void warn(String subject, String why) {
    warnings.merge(subject, why, (earlier, later) -> earlier + "; " + later);
  }

  private static Map<String, String> annotations(Node node) {
    Map<String, String> annotations = node.getMetadata().getAnnotations();
    return annotations == null ? Map.of() : annotations;
  }
}
