package io.koord4j.manager.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.koord4j.api.queue.QueueUnit;
import org.junit.jupiter.api.Test;

class StoredAheadTest {
  private final StoredAhead<QueueUnit> ahead = new StoredAhead<>();

  @Test
  void aStoredCopyNewerThanTheInformersIsReadUntilTheInformerCatchesUp() {
    QueueUnit known = unit("train", "10");
    QueueUnit admitted = unit("train", "12");

    ahead.stored(admitted, known);

    assertThat(ahead.latest(known)).isSameAs(admitted);
    ahead.seen(unit("train", "11"));
    assertThat(ahead.latest(unit("train", "11"))).isSameAs(admitted);
    QueueUnit echo = unit("train", "12");
    ahead.seen(echo);
    assertThat(ahead.latest(echo)).isSameAs(echo);
    assertThat(ahead.size()).isZero();
  }

  @Test
  void aStoredCopyTheInformerAlreadyPassedIsNotKept() {
    QueueUnit later = unit("train", "15");

    ahead.stored(unit("train", "12"), later);

    assertThat(ahead.latest(later)).isSameAs(later);
    assertThat(ahead.size()).isZero();
  }

  @Test
  void ofTwoStoredCopiesTheNewerStays() {
    QueueUnit running = unit("train", "14");

    ahead.stored(running, unit("train", "10"));
    ahead.stored(unit("train", "12"), unit("train", "10"));

    assertThat(ahead.latest(unit("train", "10"))).isSameAs(running);
  }

  @Test
  void aDeletedObjectStaysDeleted() {
    QueueUnit stored = unit("train", "12");
    ahead.stored(stored, unit("train", "10"));

    ahead.gone(unit("train", "10"));

    assertThat(ahead.latest(null)).isNull();
    assertThat(ahead.size()).isZero();
  }

  @Test
  void objectsOfOtherNamesAreKeptApart() {
    ahead.stored(unit("train", "12"), unit("train", "10"));

    QueueUnit other = unit("eval", "11");
    assertThat(ahead.latest(other)).isSameAs(other);
  }

  private static QueueUnit unit(String name, String version) {
    QueueUnit unit = new QueueUnit();
    unit.setMetadata(new ObjectMetaBuilder().withNamespace("ns").withName(name).withResourceVersion(version).build());
    return unit;
  }
}
