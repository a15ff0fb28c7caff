package io.koord4j.colocation;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import java.util.List;
import java.util.Map;

/**
 * Koordinator's QoS classes: the label {@code koordinator.sh/qosClass}, else derived from the
 * Kubernetes class (Guaranteed: LSR, Burstable: LS, BestEffort: BE).
 */
public enum QosClass {
  LSE,
  LSR,
  LS,
  BE,
  SYSTEM;

  public static QosClass of(Pod pod) {
    String label =
        pod.getMetadata() == null || pod.getMetadata().getLabels() == null
            ? null
            : pod.getMetadata().getLabels().get(WellKnown.QOS_CLASS);
    if (label != null) {
      for (QosClass qos : values()) {
        if (qos.name().equals(label)) {
          return qos;
        }
      }
    }
    return switch (kubeQos(pod)) {
      case "Guaranteed" -> LSR;
      case "Burstable" -> LS;
      default -> BE;
    };
  }

  /** {@code status.qosClass}, else Kubernetes' rule over cpu and memory requests and limits. */
  public static String kubeQos(Pod pod) {
    String written = pod.getStatus() == null ? null : pod.getStatus().getQosClass();
    if (written != null && !written.isEmpty()) {
      return written;
    }
    boolean anySet = false;
    boolean allGuaranteed = true;
    for (Container container : pod.getSpec().getContainers()) {
      Map<String, Quantity> requests = resources(container, true);
      Map<String, Quantity> limits = resources(container, false);
      for (String name : List.of("cpu", "memory")) {
        Quantity request = requests.get(name);
        Quantity limit = limits.get(name);
        anySet |= request != null || limit != null;
        allGuaranteed &=
            limit != null
                && (request == null
                    || Quantity.getAmountInBytes(request).compareTo(Quantity.getAmountInBytes(limit)) == 0);
      }
    }
    if (!anySet) {
      return "BestEffort";
    }
    return allGuaranteed ? "Guaranteed" : "Burstable";
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
