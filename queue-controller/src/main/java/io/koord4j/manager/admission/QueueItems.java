package io.koord4j.manager.admission;

import io.koord4j.api.queue.QueueItemDetail;
import io.koord4j.api.queue.QueueStatus;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.queue.core.UnitPhase;
import io.koord4j.queue.core.WaitingUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A Queue's {@code status.queueItemDetails}: the head of its waiting units, active and backing off.
 * Each list holds at most {@link #LIMIT} units: a queue's status is one object, and at about 70
 * bytes a unit, a queue of some 20,000 waiting units would outgrow the 1.5 MiB etcd takes in one
 * write (and be rewritten whole whenever its head moves). Every waiting unit's own status says its
 * place.
 */
final class QueueItems {
  /** The most units either list shows. */
  static final int LIMIT = 100;

  private QueueItems() {}

  /** @param waiting the queue's waiting units */
  static Map<String, List<QueueItemDetail>> of(
      Collection<WaitingUnit> waiting, Map<String, QueueUnit> units) {
    List<QueueItemDetail> active = new ArrayList<>();
    List<QueueItemDetail> backoff = new ArrayList<>();
    waiting.stream()
        .sorted(Comparator.comparingInt(WaitingUnit::position))
        .forEach(
            unit -> {
              List<QueueItemDetail> list = unit.phase() == UnitPhase.BACKOFF ? backoff : active;
              if (list.size() < LIMIT) {
                list.add(detail(unit, units.get(unit.unitId())));
              }
            });
    return Map.of(QueueStatus.ACTIVE, active, QueueStatus.BACKOFF, backoff);
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
