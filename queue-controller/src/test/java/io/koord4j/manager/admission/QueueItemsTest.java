package io.koord4j.manager.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.koord4j.api.queue.QueueItemDetail;
import io.koord4j.api.queue.QueueStatus;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.queue.core.UnitPhase;
import io.koord4j.queue.core.WaitReason;
import io.koord4j.queue.core.WaitingUnit;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class QueueItemsTest {
  private static final WaitReason BLOCKED = new WaitReason.BlockedBehind("ns/first");
  private static final WaitReason BACKING_OFF = new WaitReason.InBackoff(Instant.EPOCH, 1);

  @Test
  void aLongQueueShowsItsHeadInPlaceOrderAndEveryListStaysWithinTheLimit() {
    Map<String, QueueUnit> units = new HashMap<>();
    List<WaitingUnit> waiting = new ArrayList<>();
    // Active units at places 1..250 and units backing off at 251..400, handed over out of order.
    IntStream.rangeClosed(1, 400).map(i -> 401 - i).forEach(place -> {
      String name = "job-" + place;
      units.put("ns/" + name, unit(name, place % 10));
      boolean backingOff = place > 250;
      waiting.add(new WaitingUnit("ns/" + name, "q", backingOff ? UnitPhase.BACKOFF : UnitPhase.PENDING, place,
          backingOff ? BACKING_OFF : BLOCKED));
    });

    Map<String, List<QueueItemDetail>> items = QueueItems.of(waiting, units);

    List<QueueItemDetail> active = items.get(QueueStatus.ACTIVE);
    List<QueueItemDetail> backoff = items.get(QueueStatus.BACKOFF);
    assertThat(active).hasSize(QueueItems.LIMIT);
    assertThat(active).extracting(QueueItemDetail::getPosition)
        .containsExactlyElementsOf(IntStream.rangeClosed(1, QueueItems.LIMIT).boxed().toList());
    assertThat(active.get(0).getName()).isEqualTo("job-1");
    assertThat(active.get(0).getNamespace()).isEqualTo("ns");
    assertThat(active.get(0).getPriority()).isEqualTo(1);
    assertThat(backoff).hasSize(QueueItems.LIMIT);
    assertThat(backoff.get(0).getName()).isEqualTo("job-251");
  }

  @Test
  void aShortQueueShowsEveryUnit() {
    Map<String, QueueUnit> units = Map.of("ns/a", unit("a", 5), "ns/b", unit("b", 0));
    List<WaitingUnit> waiting = List.of(
        new WaitingUnit("ns/b", "q", UnitPhase.PENDING, 2, BLOCKED),
        new WaitingUnit("ns/a", "q", UnitPhase.PENDING, 1, BLOCKED));

    Map<String, List<QueueItemDetail>> items = QueueItems.of(waiting, units);

    assertThat(items.get(QueueStatus.ACTIVE)).extracting(QueueItemDetail::getName).containsExactly("a", "b");
    assertThat(items.get(QueueStatus.BACKOFF)).isEmpty();
  }

  private static QueueUnit unit(String name, int priority) {
    QueueUnit unit = new QueueUnit();
    unit.getMetadata().setName(name);
    unit.getMetadata().setNamespace("ns");
    unit.setSpec(new io.koord4j.api.queue.QueueUnitSpec());
    unit.getSpec().setPriority(priority);
    return unit;
  }
}
