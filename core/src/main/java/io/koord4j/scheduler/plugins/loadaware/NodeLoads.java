package io.koord4j.scheduler.plugins.loadaware;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.quota.ResourceVector;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What LoadAware knows of each node: the latest NodeMetric and the pods placed on the node with
 * the time they were placed, so that pods the metric cannot show yet are estimated. Fed by the
 * informers and by Reserve; read by Filter and Score in parallel.
 */
public final class NodeLoads {

  /**
   * A pod on a node since {@code at}.
   *
   * @param key the pod's {@code namespace/name}, as NodeMetric lists it
   * @param estimate what the pod is expected to use while no metric shows it
   */
  public record Assignment(String key, ResourceVector estimate, Instant at) {}

  private final PodUsageEstimator estimator;
  private final Map<String, NodeLoad> metrics = new ConcurrentHashMap<>();
  private final Map<String, Map<String, Assignment>> byNode = new HashMap<>();
  private final Map<String, String> nodeOfPod = new HashMap<>();

  public NodeLoads(PodUsageEstimator estimator) {
    this.estimator = estimator;
  }

  public void putMetric(String nodeName, NodeLoad load) {
    metrics.put(nodeName, load);
  }

  public void removeMetric(String nodeName) {
    metrics.remove(nodeName);
  }

  public Optional<NodeLoad> metric(String nodeName) {
    return Optional.ofNullable(metrics.get(nodeName));
  }

  /** Records the pod on the node; a pod already recorded there keeps its first time. */
  public synchronized void assign(Pod pod, String nodeName, Instant at) {
    String uid = pod.getMetadata().getUid();
    String previous = nodeOfPod.put(uid, nodeName);
    if (previous != null && !previous.equals(nodeName)) {
      removeFrom(previous, uid);
    }
    byNode
        .computeIfAbsent(nodeName, n -> new HashMap<>())
        .computeIfAbsent(uid, u -> new Assignment(keyOf(pod), estimator.estimate(pod), at));
  }

  public synchronized void unassign(String uid) {
    String node = nodeOfPod.remove(uid);
    if (node != null) {
      removeFrom(node, uid);
    }
  }

  public synchronized List<Assignment> assigned(String nodeName) {
    return List.copyOf(byNode.getOrDefault(nodeName, Map.of()).values());
  }

  private static String keyOf(Pod pod) {
    return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
  }

  private void removeFrom(String nodeName, String uid) {
    Map<String, Assignment> pods = byNode.get(nodeName);
    pods.remove(uid);
    if (pods.isEmpty()) {
      byNode.remove(nodeName);
    }
  }
}
