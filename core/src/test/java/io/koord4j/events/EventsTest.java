package io.koord4j.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueUnit;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class EventsTest {
  private static final Instant NOW = Instant.parse("2026-01-02T03:04:05.250Z");

  private final Pod pod =
      new PodBuilder()
          .withNewMetadata().withNamespace("team-a").withName("worker-0").withUid("uid-1").endMetadata()
          .build();

  @Test
  void anEventIsLeftForTheApiServerToNameAfterItsObjectSoThatRepeatsDoNotCollide() {
    Event event = Events.about(pod, "Warning", "Evicted", "memory pressure", NOW).build();

    assertThat(event.getMetadata().getName()).isNull();
    assertThat(event.getMetadata().getGenerateName()).isEqualTo("worker-0.");
    assertThat(event.getMetadata().getNamespace()).as("events live beside their object").isEqualTo("team-a");
  }

  @Test
  void aCustomResourcesEventPointsAtItsGroupVersionAndKindThoughNobodySetThem() {
    QueueUnit unit = new QueueUnit();
    unit.setMetadata(new ObjectMetaBuilder().withNamespace("team-a").withName("train").withUid("uid-2").build());

    Event event = Events.about(unit, "Normal", "Admitted", "admitted by queue research", NOW).build();

    // What kubectl describe matches an object's events by.
    assertThat(event.getInvolvedObject())
        .isEqualTo(new ObjectReferenceBuilder()
            .withApiVersion(Queue.GROUP + "/" + Queue.VERSION)
            .withKind("QueueUnit")
            .withNamespace("team-a")
            .withName("train")
            .withUid("uid-2")
            .build());
  }

  @Test
  void anEventCountsOneOccurrenceFirstAndLastSeenAtTheGivenInstant() {
    Event event = Events.about(pod, "Warning", "Evicted", "memory pressure", NOW).build();

    assertThat(event.getCount()).isEqualTo(1);
    assertThat(event.getFirstTimestamp()).isEqualTo(event.getLastTimestamp()).isEqualTo("2026-01-02T03:04:05.250Z");
  }
}
