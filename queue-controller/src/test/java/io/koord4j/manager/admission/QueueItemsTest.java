package io.koord4j.manager.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.koord4j.api.queue.QueueItemDetail;
import io.koord4j.api.queue.QueueStatus;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.manager.queue.QueueReconciler;
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

  private final Map<String, QueueUnit> units = Map.of("ns/a", unit("a", 5), "ns/b", unit("b", 0));

  @Test
  void aShortQueueShowsEveryUnit() {
    List<WaitingUnit> placed = inLine("ns/a", "ns/b");
    // Handed over out of order.
    List<WaitingUnit> waiting = List.of(placed.get(1), placed.get(0));

    Map<String, List<QueueItemDetail>> items = QueueItems.of(waiting, units);

    assertThat(items.get(QueueStatus.ACTIVE)).extracting(QueueItemDetail::getName).containsExactly("a", "b");
    assertThat(items.get(QueueStatus.BACKOFF)).isEmpty();
  }

  @Test
  void aQueueIsRepublishedOnlyWhenItsListChanged() {
    AdmissionSnapshots snapshots = new AdmissionSnapshots();
    List<String> changed = new ArrayList<>();
    SnapshotChanges.follow(snapshots, QueueReconciler::positions, changed::add);

    snapshots.publish(queueOf(inLine("ns/a", "ns/b")));
    snapshots.publish(queueOf(inLine("ns/a", "ns/b")));
    snapshots.publish(queueOf(inLine("ns/b", "ns/a")));

    assertThat(changed).as("first list, the same list built again, a new order").containsExactly("ns/q", "ns/q");
  }

  /** Pending units of queue q, at places 1, 2, ... in the order given. */
  private static List<WaitingUnit> inLine(String... unitIds) {
    return IntStream.range(0, unitIds.length)
        .mapToObj(i -> new WaitingUnit(unitIds[i], "q", UnitPhase.PENDING, i + 1, BLOCKED))
        .toList();
  }

  private AdmissionSnapshot queueOf(List<WaitingUnit> waiting) {
    return new AdmissionSnapshot(
        Map.of(), Map.of("ns/q", new AdmissionSnapshot.QueueFigures(QueueItems.of(waiting, units), waiting.size(), 0)));
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
