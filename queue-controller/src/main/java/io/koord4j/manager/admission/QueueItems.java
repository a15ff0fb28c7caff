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

/** A Queue's {@code status.queueItemDetails}: its waiting units, active and backing off. */
final class QueueItems {
  private QueueItems() {}

  /** @param waiting the queue's waiting units */
  static Map<String, List<QueueItemDetail>> of(
      Collection<WaitingUnit> waiting, Map<String, QueueUnit> units) {
    List<QueueItemDetail> active = new ArrayList<>();
    List<QueueItemDetail> backoff = new ArrayList<>();
    waiting.stream()
        .sorted(Comparator.comparingInt(WaitingUnit::position))
        .forEach(
            unit ->
                (unit.phase() == UnitPhase.BACKOFF ? backoff : active)
                    .add(detail(unit, units.get(unit.unitId()))));
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
