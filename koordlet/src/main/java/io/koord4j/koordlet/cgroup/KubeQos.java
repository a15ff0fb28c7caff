package io.koord4j.koordlet.cgroup;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.colocation.QosClass;

/** The Kubernetes QoS class of a pod, which decides the kubelet's cgroup directory for it. */
public enum KubeQos {
  GUARANTEED("Guaranteed"),
  BURSTABLE("Burstable"),
  BEST_EFFORT("BestEffort");

  private final String statusName;

  KubeQos(String statusName) {
    this.statusName = statusName;
  }

  public static KubeQos of(Pod pod) {
    String name = QosClass.kubeQos(pod);
    for (KubeQos qos : values()) {
      if (qos.statusName.equals(name)) {
        return qos;
      }
    }
    return BEST_EFFORT;
  }
}
