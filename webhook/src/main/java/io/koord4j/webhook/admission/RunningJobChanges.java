package io.koord4j.webhook.admission;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.koord4j.jobs.GangShape;
import io.koord4j.jobs.JobAdapter;
import java.util.Optional;

/**
 * Which changes a queued job may not make while it runs, as Kueue refuses them: its queue, and the
 * pod counts or requests its queue admitted. A job suspended by the same update may change
 * anything; its queue admits it again for what it then asks. Pure.
 */
final class RunningJobChanges {
  private RunningJobChanges() {}

  /** Why the update is refused; empty when it is allowed. */
  static <T extends HasMetadata> Optional<String> refusal(JobAdapter<T> adapter, T before, T after) {
    Optional<String> queue = adapter.queueName(before.getMetadata());
    if (queue.isEmpty() || adapter.isSuspended(before) || adapter.isSuspended(after)) {
      return Optional.empty();
    }
    Optional<String> newQueue = adapter.queueName(after.getMetadata());
    if (!queue.equals(newQueue)) {
      return Optional.of(
          "metadata.labels: the queue of a running job cannot change (from \"" + queue.get()
              + "\" to " + newQueue.map(q -> "\"" + q + "\"").orElse("none")
              + "); suspend the job first");
    }
    return GangShape.of(adapter, before)
        .changeTo(GangShape.of(adapter, after))
        .map(change -> "spec: a running job cannot change the size its queue admitted (" + change
            + "); suspend the job first, and its queue admits it again for the new size");
  }
}
