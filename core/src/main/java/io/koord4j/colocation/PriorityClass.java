package io.koord4j.colocation;

import io.fabric8.kubernetes.api.model.Pod;

/** Koordinator's priority classes, by the band {@code spec.priority} falls in. */
public enum PriorityClass {
  PROD("koord-prod", 9000, 9999),
  MID("koord-mid", 7000, 7999),
  BATCH("koord-batch", 5000, 5999),
  FREE("koord-free", 3000, 3999);

  private final String value;
  private final int min;
  private final int max;

  PriorityClass(String value, int min, int max) {
    this.value = value;
    this.min = min;
    this.max = max;
  }

  /** The name Koordinator writes, e.g. in NodeMetric's {@code podsMetric[].priority}. */
  public String value() {
    return value;
  }

  /** Batch and free pods run on reclaimed resources; the others are the ones reclaimed from. */
  public boolean isLowPriority() {
    return this == BATCH || this == FREE;
  }

  /** The band of the pod's priority, else the class its QoS implies (BE: batch, others: prod). */
  public static PriorityClass of(Pod pod) {
    Integer priority = pod.getSpec() == null ? null : pod.getSpec().getPriority();
    if (priority != null) {
      for (PriorityClass band : values()) {
        if (priority >= band.min && priority <= band.max) {
          return band;
        }
      }
    }
    return QosClass.of(pod) == QosClass.BE ? BATCH : PROD;
  }

  /** A class by its written name, as in third-party allocations; null when unknown. */
  public static PriorityClass fromValue(String value) {
    for (PriorityClass band : values()) {
      if (band.value.equals(value)) {
        return band;
      }
    }
    return null;
  }
}
