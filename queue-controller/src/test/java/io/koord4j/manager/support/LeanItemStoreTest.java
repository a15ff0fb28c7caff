package io.koord4j.manager.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.manager.admission.UnitSpecs;
import org.junit.jupiter.api.Test;

class LeanItemStoreTest {
  @Test
  void anObjectIsKeptAndHandedOnWithoutItsManagedFields() {
    LeanItemStore<QueueUnit> store = new LeanItemStore<>();
    QueueUnit unit = new QueueUnit();
    unit.setMetadata(
        new ObjectMetaBuilder()
            .withNamespace("team")
            .withName("job")
            .withManagedFields(new ManagedFieldsEntryBuilder().withManager("koord4j").withOperation("Update").build())
            .build());

    store.put(store.getKey(unit), unit);

    assertThat(store.get("team/job")).isSameAs(unit);
    assertThat(unit.getMetadata().getManagedFields()).as("what event handlers see too").isNullOrEmpty();
    assertThat(unit.getMetadata().getName()).isEqualTo("job");
  }

  @Test
  void aUnitIsKeyedByTheSameIdStringTheManagerKeysItBy() {
    LeanItemStore<QueueUnit> store = new LeanItemStore<>();
    QueueUnit unit = new QueueUnit();
    unit.setMetadata(new ObjectMetaBuilder().withNamespace("team").withName("job").build());

    store.put(store.getKey(unit), unit);

    assertThat(store.keySet()).singleElement().isSameAs(UnitSpecs.id(unit));
    assertThat(UnitSpecs.id(unit)).as("one String, however often asked").isSameAs(UnitSpecs.id(unit));
  }
}
