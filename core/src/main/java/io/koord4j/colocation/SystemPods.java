package io.koord4j.colocation;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Map;
import java.util.Set;

/** Pods that run the node or the cluster itself, told apart from tenants' workloads; no I/O. */
public final class SystemPods {
  private SystemPods() {}

  /** Kubernetes' floor of system-critical priority (system-cluster-critical; node-critical is above). */
  static final int SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;

  private static final String SYSTEM_NAMESPACE = "kube-system";
  private static final Set<String> CRITICAL_PRIORITY_CLASSES = Set.of("system-cluster-critical", "system-node-critical");
  /** The kubelet's mark on the API object that mirrors a static pod. */
  private static final String MIRROR_ANNOTATION = "kubernetes.io/config.mirror";
  private static final String DAEMON_SET = "DaemonSet";

  /**
   * Whether koordlet's QoS eviction must leave the pod alone. Its QoS class is no protection: a
   * tenant may label any pod BE, and evicting the node's own agents would hurt every pod on it.
   */
  public static boolean isEvictionProtected(Pod pod) {
    return inSystemNamespace(pod) || isCritical(pod) || isMirrorPod(pod) || isDaemonSetPod(pod);
  }

  public static boolean isDaemonSetPod(Pod pod) {
    ObjectMeta metadata = pod.getMetadata();
    return metadata != null
        && metadata.getOwnerReferences() != null
        && metadata.getOwnerReferences().stream().anyMatch(owner -> DAEMON_SET.equals(owner.getKind()));
  }

  /** By {@code spec.priority}, or by the class name while the priority is not yet resolved. */
  private static boolean isCritical(Pod pod) {
    if (pod.getSpec() == null) {
      return false;
    }
    Integer priority = pod.getSpec().getPriority();
    String priorityClass = pod.getSpec().getPriorityClassName();
    return (priority != null && priority >= SYSTEM_CRITICAL_PRIORITY)
        || (priorityClass != null && CRITICAL_PRIORITY_CLASSES.contains(priorityClass));
  }

  private static boolean inSystemNamespace(Pod pod) {
    return pod.getMetadata() != null && SYSTEM_NAMESPACE.equals(pod.getMetadata().getNamespace());
  }

  private static boolean isMirrorPod(Pod pod) {
    Map<String, String> annotations = pod.getMetadata() == null ? null : pod.getMetadata().getAnnotations();
    return annotations != null && annotations.containsKey(MIRROR_ANNOTATION);
  }
}
