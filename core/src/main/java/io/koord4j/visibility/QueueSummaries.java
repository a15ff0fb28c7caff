package io.koord4j.visibility;

import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueuePolicy;
import io.koord4j.api.queue.QueueUnit;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/** {@code queues}: every Queue with its policy and how many units wait, hold quota and run. */
public final class QueueSummaries {
  private QueueSummaries() {}

  public record QueueSummary(
      String name, String policy, int priority, long pending, long admitted, long running,
      String oldestPending, String oldestPendingAge) {}

  public static List<QueueSummary> of(List<Queue> queues, List<QueueUnit> units, Instant now) {
    return queues.stream()
        .sorted(Comparator.comparing(q -> q.getMetadata().getName()))
        .map(queue -> summary(queue, units.stream().filter(u -> inQueue(u, queue)).toList(), now))
        .toList();
  }

  public static String table(List<QueueSummary> rows) {
    TextTable table = new TextTable("QUEUE", "POLICY", "PRIORITY", "PENDING", "ADMITTED", "RUNNING", "OLDEST PENDING");
    rows.forEach(r -> table.row(r.name(), r.policy(), r.priority(), r.pending(), r.admitted(), r.running(),
        r.oldestPending() == null ? "-" : r.oldestPending() + " (" + r.oldestPendingAge() + ")"));
    return table.render();
  }

  private static QueueSummary summary(Queue queue, List<QueueUnit> units, Instant now) {
    QueueUnit oldest = units.stream().filter(UnitPhases::isPending)
        .min(Comparator.comparing(u -> u.getMetadata().getCreationTimestamp())).orElse(null);
    String policy = queue.getSpec() == null || queue.getSpec().getQueuePolicy() == null
        ? QueuePolicy.PRIORITY : queue.getSpec().getQueuePolicy();
    int priority = queue.getSpec() == null ? 0 : Objects.requireNonNullElse(queue.getSpec().getPriority(), 0);
    return new QueueSummary(
        queue.getMetadata().getName(), policy, priority,
        units.stream().filter(UnitPhases::isPending).count(),
        units.stream().filter(UnitPhases::isAdmitted).count(),
        units.stream().filter(UnitPhases::isRunning).count(),
        oldest == null ? null : oldest.getMetadata().getNamespace() + "/" + oldest.getMetadata().getName(),
        oldest == null ? null : Ages.since(oldest.getMetadata().getCreationTimestamp(), now));
  }

  private static boolean inQueue(QueueUnit unit, Queue queue) {
    return unit.getSpec() != null && queue.getMetadata().getName().equals(unit.getSpec().getQueue());
  }
}
