package io.koord4j.scheduler.plugins.loadaware;

import io.koord4j.api.slo.NodeMetric;
import io.koord4j.api.slo.NodeMetricInfo;
import io.koord4j.api.slo.PodMetricInfo;
import io.koord4j.api.slo.ResourceMap;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.quota.ResourceVector;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One node's measured usage, read from its NodeMetric.
 *
 * @param updateTime when the node agent took the measurement
 * @param reportInterval how often the agent reports; a pod placed less than this before {@code
 *     updateTime} may not show in the measurement yet
 * @param nodeUsage the whole node's usage, in base units
 * @param podUsage by {@code namespace/name}, the usage of each measured pod
 */
public record NodeLoad(
    Instant updateTime,
    Duration reportInterval,
    ResourceVector nodeUsage,
    Map<String, ResourceVector> podUsage) {

  /** Koordinator's report interval when the NodeMetric does not say. */
  static final Duration DEFAULT_REPORT_INTERVAL = Duration.ofSeconds(60);

  public NodeLoad {
    podUsage = Map.copyOf(podUsage);
  }

  /**
   * The measurement, or empty while the node agent has not reported one (no update time yet).
   *
   * @throws IllegalArgumentException naming the field when a reported status lacks node usage, or
   *     holds a malformed time or a malformed or negative quantity
   */
  public static Optional<NodeLoad> from(NodeMetric metric) {
    var status = metric.getStatus();
    if (status == null || status.getUpdateTime() == null) {
      return Optional.empty();
    }
    NodeMetricInfo node = status.getNodeMetric();
    if (node == null || node.getNodeUsage() == null) {
      throw new IllegalArgumentException("status.nodeMetric.nodeUsage: required");
    }
    Map<String, ResourceVector> pods = new HashMap<>();
    List<PodMetricInfo> podsMetric = status.getPodsMetric() == null ? List.of() : status.getPodsMetric();
    for (int i = 0; i < podsMetric.size(); i++) {
      PodMetricInfo pod = podsMetric.get(i);
      pods.put(
          pod.getNamespace() + "/" + pod.getName(),
          usage(pod.getPodUsage(), "status.podsMetric[" + i + "].podUsage.resources"));
    }
    return Optional.of(
        new NodeLoad(
            updateTime(status.getUpdateTime()),
            reportInterval(metric),
            usage(node.getNodeUsage(), "status.nodeMetric.nodeUsage.resources"),
            pods));
  }

  /** Whether the measurement is older than {@code expiration} at {@code now}. */
  public boolean expiredAt(Instant now, Duration expiration) {
    return !updateTime.plus(expiration).isAfter(now);
  }

  /**
   * Whether a pod placed at {@code assignedAt} may be missing from this measurement, so that its
   * use must be estimated: placed after it, or too shortly before it to be counted yet.
   */
  public boolean mayMiss(Instant assignedAt) {
    return assignedAt.isAfter(updateTime)
        || Duration.between(assignedAt, updateTime).compareTo(reportInterval) < 0;
  }

  private static Instant updateTime(String text) {
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "status.updateTime: \"" + text + "\" is not an RFC 3339 time");
    }
  }

  private static Duration reportInterval(NodeMetric metric) {
    var spec = metric.getSpec();
    Long seconds =
        spec == null || spec.getMetricCollectPolicy() == null
            ? null
            : spec.getMetricCollectPolicy().getReportIntervalSeconds();
    return seconds == null ? DEFAULT_REPORT_INTERVAL : Duration.ofSeconds(seconds);
  }

  private static ResourceVector usage(ResourceMap map, String fieldPath) {
    ResourceVector usage =
        ResourceQuantities.toSignedVector(map == null ? null : map.getResources(), fieldPath);
    for (var entry : usage.asMap().entrySet()) {
      if (entry.getValue() < 0) {
        throw new IllegalArgumentException(
            fieldPath + "[" + entry.getKey() + "]: usage must not be negative");
      }
    }
    return usage;
  }
}
