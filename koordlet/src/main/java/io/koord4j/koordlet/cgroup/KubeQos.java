package io.koord4j.koordlet.cgroup;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Map;

/** The Kubernetes QoS class of a pod, which decides the kubelet's cgroup directory for it. */
public enum KubeQos {
  GUARANTEED("Guaranteed"),
  BURSTABLE("Burstable"),
  BEST_EFFORT("BestEffort");

  private final String statusName;

  KubeQos(String statusName) {
    this.statusName = statusName;
  }

  /** The class the API server wrote in {@code status.qosClass}, else derived from the spec. */
  public static KubeQos of(Pod pod) {
    String written = pod.getStatus() == null ? null : pod.getStatus().getQosClass();
    for (KubeQos qos : values()) {
      if (qos.statusName.equals(written)) {
        return qos;
      }
    }
    return fromSpec(pod.getSpec().getContainers());
  }

  /** Kubernetes' rule over cpu and memory: none set is BestEffort, all equal limits Guaranteed. */
  static KubeQos fromSpec(List<Container> containers) {
    boolean anySet = false;
    boolean allGuaranteed = true;
    for (Container container : containers) {
      Map<String, Quantity> requests = resources(container, true);
      Map<String, Quantity> limits = resources(container, false);
      for (String name : List.of("cpu", "memory")) {
        Quantity request = requests.get(name);
        Quantity limit = limits.get(name);
        anySet |= request != null || limit != null;
        boolean equal =
            limit != null
                && (request == null
                    || Quantity.getAmountInBytes(request).compareTo(Quantity.getAmountInBytes(limit)) == 0);
        allGuaranteed &= equal;
      }
    }
    if (!anySet) {
      return BEST_EFFORT;
    }
    return allGuaranteed ? GUARANTEED : BURSTABLE;
  }

  private static Map<String, Quantity> resources(Container container, boolean requests) {
    if (container.getResources() == null) {
      return Map.of();
    }
    Map<String, Quantity> values =
        requests ? container.getResources().getRequests() : container.getResources().getLimits();
    return values == null ? Map.of() : values;
  }
}
