package io.koord4j.webhook.admission;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.koord4j.api.WellKnown;
import io.koord4j.jobs.JobAdapter;
import io.koord4j.jobs.JsonField;
import io.koord4j.jobs.QueueMembership;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Which changes nobody but koord4j may make to a job its queue holds: suspended, not skipped, and
 * queued by a label, by the queue's mark ({@link JobAdapter#enqueueFields}) or by its managed
 * namespace. Only the queue resumes such a job, once it admits the whole gang; so the job may not
 * be resumed, leave every queue, nor become one its kind skips (e.g. by {@code koord-queue/skip}).
 * It may still move to another queue, or change its size, as Kueue allows. The caller exempts
 * koord4j's own writes. Pure.
 */
final class QueuedJobChanges {
  private QueuedJobChanges() {}

  /**
   * Why the update is refused, naming every field it may not change; empty when it is allowed.
   *
   * @throws IllegalArgumentException when either version's metadata cannot be read
   */
  static Optional<String> refusal(
      JobAdapter<?> adapter, JsonNode before, JsonNode after, boolean namespaceManaged) {
    ObjectMeta was = Json.metadata(before);
    if (!isHeld(adapter, before, was, namespaceManaged)) {
      return Optional.empty();
    }
    ObjectMeta is = Json.metadata(after);
    List<String> violations =
        Stream.of(
                resumed(adapter, before, after),
                leftEveryQueue(was, is).stream(),
                optedOut(adapter, is).stream())
            .flatMap(reasons -> reasons)
            .toList();
    return violations.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", violations));
  }

  private static boolean isHeld(
      JobAdapter<?> adapter, JsonNode job, ObjectMeta metadata, boolean namespaceManaged) {
    return !adapter.isSkipped(metadata)
        && suspensionFields(adapter).anyMatch(field -> field.holdsIn(job))
        && (namespaceManaged || QueueMembership.queueLabel(metadata).isPresent() || isMarked(metadata));
  }

  /** Each suspension field that held its suspended value before the update and no longer does. */
  private static Stream<String> resumed(JobAdapter<?> adapter, JsonNode before, JsonNode after) {
    return suspensionFields(adapter)
        .filter(field -> field.holdsIn(before) && !field.holdsIn(after))
        .map(field -> field.fieldPath() + ": a queued job is resumed only by its queue (koord4j) once admitted");
  }

  /** Its queue label removed with no other left: moving to another queue is allowed. */
  private static Optional<String> leftEveryQueue(ObjectMeta was, ObjectMeta is) {
    return QueueMembership.queueLabel(was)
        .filter(label -> QueueMembership.queueLabel(is).isEmpty())
        .map(label -> "metadata.labels[" + label + "]: a queued job cannot leave every queue while it"
            + " waits; it may name another queue");
  }

  private static Optional<String> optedOut(JobAdapter<?> adapter, ObjectMeta is) {
    if (!adapter.isSkipped(is)) {
      return Optional.empty();
    }
    String field =
        QueueMembership.optsOut(is) ? "metadata.labels[" + WellKnown.SKIP_QUEUE_LABEL + "]" : "metadata";
    return Optional.of(field + ": a queued job cannot leave its queue while it waits");
  }

  /** The fields that hold a job of the kind back, with their suspended values. */
  private static Stream<JsonField> suspensionFields(JobAdapter<?> adapter) {
    return adapter.suspensionFields(true).stream().filter(field -> field.value() != null);
  }

  private static boolean isMarked(ObjectMeta metadata) {
    Map<String, String> annotations = metadata == null ? null : metadata.getAnnotations();
    return annotations != null && "true".equals(annotations.get(WellKnown.JOB_HAS_ENQUEUED));
  }
}
