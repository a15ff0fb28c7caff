package io.koord4j.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class EventsTest {

  @Test
  void anEventNamesItsObjectAndOneOccurrenceInTheObjectsNamespace() {
    Pod pod =
        new PodBuilder()
            .withNewMetadata()
            .withNamespace("team-a")
            .withName("worker-0")
            .withUid("uid-1")
            .endMetadata()
            .build();
    Instant now = Instant.parse("2026-01-02T03:04:05Z");

    Event event = Events.about(pod, "Warning", "Evicted", "memory pressure", now).build();

    assertThat(event.getMetadata().getGenerateName()).isEqualTo("worker-0.");
    assertThat(event.getMetadata().getNamespace()).isEqualTo("team-a");
    assertThat(event.getInvolvedObject().getApiVersion()).isEqualTo("v1");
    assertThat(event.getInvolvedObject().getKind()).isEqualTo("Pod");
    assertThat(event.getInvolvedObject().getNamespace()).isEqualTo("team-a");
    assertThat(event.getInvolvedObject().getName()).isEqualTo("worker-0");
    assertThat(event.getInvolvedObject().getUid()).isEqualTo("uid-1");
    assertThat(event.getType()).isEqualTo("Warning");
    assertThat(event.getReason()).isEqualTo("Evicted");
    assertThat(event.getMessage()).isEqualTo("memory pressure");
    assertThat(event.getFirstTimestamp()).isEqualTo("2026-01-02T03:04:05Z");
    assertThat(event.getLastTimestamp()).isEqualTo("2026-01-02T03:04:05Z");
    assertThat(event.getCount()).isEqualTo(1);
  }
}
