package io.koord4j.manager.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.Queue;
import io.koord4j.queue.core.Backoff;
import io.koord4j.queue.core.QueueConfig;
import io.koord4j.queue.core.QueuePolicy;
import io.koord4j.queue.core.WaitForPodsReady;
import java.time.Duration;
import java.util.Map;

/** Reads a koord-queue Queue as the core's {@link QueueConfig}. */
public final class QueueConfigs {
  private QueueConfigs() {}

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  public static QueueConfig from(Queue queue) {
    Map<String, String> labels = orEmpty(queue.getMetadata().getLabels());
    Map<String, String> annotations = orEmpty(queue.getMetadata().getAnnotations());
    String policy =
        queue.getSpec() != null && queue.getSpec().getQueuePolicy() != null
            ? queue.getSpec().getQueuePolicy()
            : WellKnown.readQueueKey(labels, WellKnown.QUEUE_POLICY_LABEL);
    Integer priority = queue.getSpec() == null ? null : queue.getSpec().getPriority();
    return new QueueConfig(
        QueueKeys.of(queue),
        QueuePolicy.fromSpec(policy),
        priority == null ? 0 : priority,
        "true".equals(WellKnown.readQueueKey(annotations, WellKnown.ENABLE_QUEUEUNIT_PREEMPTION)),
        "true".equals(WellKnown.readQueueKey(annotations, WellKnown.WAIT_FOR_PODS_RUNNING)),
        backoff(WellKnown.readQueueKey(annotations, WellKnown.QUEUE_ARGS)),
        priorityThreshold(WellKnown.readQueueKey(annotations, WellKnown.PRIORITY_THRESHOLD)),
        "true".equals(annotations.get(WellKnown.BACKFILL)));
  }

  /** The Intelligent policy's threshold; koord-queue's default when absent or not a number. */
  static int priorityThreshold(String value) {
    try {
      return value == null ? QueuePolicy.DEFAULT_PRIORITY_THRESHOLD : Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      return QueuePolicy.DEFAULT_PRIORITY_THRESHOLD;
    }
  }

  /** {@code podInitialBackoffSeconds} and {@code podMaxBackoffSeconds}; defaults when unusable. */
  static Backoff backoff(String queueArgs) {
    JsonNode args = args(queueArgs);
    if (args.isMissingNode()) {
      return Backoff.DEFAULT;
    }
    try {
      long initial =
          args.path("podInitialBackoffSeconds").asLong(Backoff.DEFAULT.initial().toSeconds());
      long max = args.path("podMaxBackoffSeconds").asLong(Backoff.DEFAULT.max().toSeconds());
      return new Backoff(Duration.ofSeconds(initial), Duration.ofSeconds(Math.max(initial, max)));
    } catch (IllegalArgumentException e) {
      return Backoff.DEFAULT;
    }
  }

  /** The queue's pods-ready settings: the manager's, but for those its queue args give. */
  public static WaitForPodsReady waitForPodsReady(Queue queue, WaitForPodsReady manager) {
    Map<String, String> annotations = orEmpty(queue.getMetadata().getAnnotations());
    return WaitForPodsReadySettings.forQueue(
        args(WellKnown.readQueueKey(annotations, WellKnown.QUEUE_ARGS)), manager);
  }

  /** The queue args' YAML; a missing node when absent or unreadable. */
  private static JsonNode args(String queueArgs) {
    if (queueArgs == null || queueArgs.isBlank()) {
      return MissingNode.getInstance();
    }
    try {
      return YAML.readTree(queueArgs);
    } catch (java.io.IOException e) {
      return MissingNode.getInstance();
    }
  }

  private static Map<String, String> orEmpty(Map<String, String> map) {
    return map == null ? Map.of() : map;
  }
}
