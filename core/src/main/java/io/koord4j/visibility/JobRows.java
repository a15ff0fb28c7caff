package io.koord4j.visibility;

import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitPhase;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/** {@code jobs}: queued jobs with their place in the queue, phase, age and what they wait for. */
public final class JobRows {
  /** The admission core's order inside a queue: higher priority first, then earlier arrival, then name. */
  public static final Comparator<QueueUnit> QUEUE_ORDER =
      Comparator.comparingInt((QueueUnit u) -> -priority(u))
          .thenComparing(u -> u.getMetadata().getCreationTimestamp())
          .thenComparing(u -> u.getMetadata().getNamespace() + "/" + u.getMetadata().getName());

  private JobRows() {}

  public record JobRow(String namespace, String name, String kind, String queue, Integer position, String phase,
      String age, String reason) {}

  /** @param queue only units of this queue; null for all */
  public static List<JobRow> of(List<QueueUnit> units, String queue, Instant now) {
    return units.stream()
        .filter(u -> queue == null || queue.equals(u.getSpec().getQueue()))
        .sorted(Comparator.comparing((QueueUnit u) -> Objects.toString(u.getSpec().getQueue(), ""))
            .thenComparing(JobRows::waitingFirst).thenComparing(QUEUE_ORDER))
        .map(u -> row(u, units, now))
        .toList();
  }

  public static String table(List<JobRow> rows) {
    TextTable table = new TextTable("NAMESPACE", "NAME", "KIND", "QUEUE", "POSITION", "PHASE", "AGE", "REASON");
    rows.forEach(r -> table.row(r.namespace(), r.name(), r.kind(), r.queue(),
        r.position() == null ? "-" : r.position(), r.phase(), r.age(), r.reason()));
    return table.render();
  }

  public static int priority(QueueUnit unit) {
    return unit.getSpec().getPriority() == null ? 0 : unit.getSpec().getPriority();
  }

  /**
   * The Enqueued units of the unit's queue, in the order the queue admits them ({@link
   * #QUEUE_ORDER}, the admission core's own). Computed rather than read from {@code
   * status.positionInQueue}, which the manager keeps exact only near the head of a long queue.
   */
  public static List<QueueUnit> line(QueueUnit unit, List<QueueUnit> all) {
    return all.stream()
        .filter(u -> Objects.equals(u.getSpec().getQueue(), unit.getSpec().getQueue()))
        .filter(u -> QueueUnitPhase.ENQUEUED.equals(UnitPhases.phase(u)))
        .sorted(QUEUE_ORDER)
        .toList();
  }

  /** 1-based place of an Enqueued unit in {@link #line}. */
  public static int position(QueueUnit unit, List<QueueUnit> all) {
    return line(unit, all).indexOf(unit) + 1;
  }

  private static int waitingFirst(QueueUnit unit) {
    return UnitPhases.isPending(unit) ? 0 : 1;
  }

  private static JobRow row(QueueUnit unit, List<QueueUnit> all, Instant now) {
    Integer position = QueueUnitPhase.ENQUEUED.equals(UnitPhases.phase(unit)) ? position(unit, all) : null;
    String kind = unit.getSpec().getConsumerRef() == null ? "" : unit.getSpec().getConsumerRef().getKind();
    String reason = UnitPhases.isPending(unit) && unit.getStatus() != null ? unit.getStatus().getMessage() : "";
    return new JobRow(unit.getMetadata().getNamespace(), unit.getMetadata().getName(), kind,
        unit.getSpec().getQueue(), position, UnitPhases.phase(unit),
        Ages.since(unit.getMetadata().getCreationTimestamp(), now), reason);
  }
}
