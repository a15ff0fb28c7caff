package io.koord4j.manager.admission;

import io.koord4j.api.queue.QueueItemDetail;
import io.koord4j.api.queue.QueueStatus;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.queue.core.UnitPhase;
import io.koord4j.queue.core.WaitingUnit;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.stream.Collectors;

/**
 * A Queue's {@code status.queueItemDetails}: the head of its waiting units, active and backing off.
 * Each list holds at most {@link #LIMIT} units: a queue's status is one object, and at about 70
 * bytes a unit, a queue of some 20,000 waiting units would outgrow the 1.5 MiB etcd takes in one
 * write (and be rewritten whole whenever its head moves). Every waiting unit's own status says its
 * place.
 */
public final class QueueItems {
  /** The most units either list shows. */
  public static final int LIMIT = 100;

  private static final Comparator<WaitingUnit> BY_POSITION = Comparator.comparingInt(WaitingUnit::position);

  private QueueItems() {}

  /** @param waiting the queue's waiting units */
  static Map<String, List<QueueItemDetail>> of(
      Collection<WaitingUnit> waiting, Map<String, QueueUnit> units) {
    Map<Boolean, List<WaitingUnit>> backingOff =
        waiting.stream().collect(Collectors.partitioningBy(unit -> unit.phase() == UnitPhase.BACKOFF));
    return Map.of(
        QueueStatus.ACTIVE, head(backingOff.get(false), units),
        QueueStatus.BACKOFF, head(backingOff.get(true), units));
  }

  /**
   * The first {@link #LIMIT} units by position, found without sorting the rest: a long queue's
   * list is built on every pass.
   */
  private static List<QueueItemDetail> head(List<WaitingUnit> waiting, Map<String, QueueUnit> units) {
    PriorityQueue<WaitingUnit> first = new PriorityQueue<>(BY_POSITION.reversed());
    for (WaitingUnit unit : waiting) {
      first.add(unit);
      if (first.size() > LIMIT) {
        first.poll();
      }
    }
    return first.stream()
        .sorted(BY_POSITION)
        .map(unit -> detail(unit, units.get(unit.unitId())))
        .toList();
  }

  private static QueueItemDetail detail(WaitingUnit waiting, QueueUnit unit) {
    QueueItemDetail detail = new QueueItemDetail();
    detail.setNamespace(unit.getMetadata().getNamespace());
    detail.setName(unit.getMetadata().getName());
    detail.setPriority(unit.getSpec().getPriority());
    detail.setPosition(waiting.position());
    return detail;
  }
}
