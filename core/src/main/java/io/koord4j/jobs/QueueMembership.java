package io.koord4j.jobs;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.koord4j.api.WellKnown;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Which queue an object asks for, read from the labels and annotations that Kueue, Koordinator
 * and koord-queue use. The same for every job kind, since only metadata is read.
 *
 * <p>Precedence, first non-blank value wins:
 *
 * <ol>
 *   <li>label {@code kueue.x-k8s.io/queue-name}: names a Queue directly, so a manifest written for
 *       Kueue lands exactly where it would under Kueue;
 *   <li>label {@code quota.scheduling.koordinator.sh/name}: names an ElasticQuota, whose Queue has
 *       the same name;
 *   <li>annotation {@code koord-queue/queue-name} (or the older {@code kube-queue/queue-name}):
 *       the least visible way to ask, so the weakest.
 * </ol>
 *
 * <p>An object labelled {@code koord-queue/skip: "true"} is never queued, whatever it names: e.g.
 * a RayCluster that something other than a user creates, such as a notebook platform that runs
 * its own admission.
 */
public final class QueueMembership {
  private QueueMembership() {}

  /** The queue the object names, if any. */
  public static Optional<String> queueName(ObjectMeta metadata) {
    if (metadata == null) {
      return Optional.empty();
    }
    Map<String, String> labels = metadata.getLabels();
    return Stream.of(
            labelValue(labels, WellKnown.KUEUE_QUEUE_NAME),
            labelValue(labels, WellKnown.QUOTA_NAME),
            WellKnown.readQueueKey(metadata.getAnnotations(), WellKnown.QUEUE_NAME_ANNOTATION))
        .filter(value -> value != null && !value.isBlank())
        .map(String::strip)
        .findFirst();
  }

  /**
   * The key of the label that names the object's queue, Kueue's before the quota's: the names a
   * webhook's object selector can see. Empty when neither is set.
   */
  public static Optional<String> queueLabel(ObjectMeta metadata) {
    Map<String, String> labels = metadata == null ? null : metadata.getLabels();
    return Stream.of(WellKnown.KUEUE_QUEUE_NAME, WellKnown.QUOTA_NAME)
        .filter(key -> {
          String value = labelValue(labels, key);
          return value != null && !value.isBlank();
        })
        .findFirst();
  }

  /** Whether the queue manages the object: it names a queue or its namespace is managed. */
  public static boolean isManaged(ObjectMeta metadata, boolean namespaceIsManaged) {
    return namespaceIsManaged || queueName(metadata).isPresent();
  }

  /** Whether the object opted out of queueing with {@code koord-queue/skip: "true"}. */
  public static boolean optsOut(ObjectMeta metadata) {
    return metadata != null
        && "true".equals(labelValue(metadata.getLabels(), WellKnown.SKIP_QUEUE_LABEL));
  }

  private static String labelValue(Map<String, String> labels, String key) {
    return labels == null ? null : labels.get(key);
  }
}
