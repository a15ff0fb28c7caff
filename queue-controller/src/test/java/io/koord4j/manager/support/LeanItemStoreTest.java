package io.koord4j.manager.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.koord4j.api.queue.QueueUnit;
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
}
