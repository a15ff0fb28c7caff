package io.koord4j.manager.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.Queue;
import io.koord4j.queue.core.WaitForPodsReady;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class WaitForPodsReadySettingsTest {

  @Test
  void withoutSettingsPodsHaveFiveMinutesAndTimedOutUnitsAreRequeuedForEver() {
    assertThat(WaitForPodsReadySettings.from(Map.of())).isEqualTo(WaitForPodsReady.DEFAULTS);
    assertThat(WaitForPodsReady.DEFAULTS).isEqualTo(new WaitForPodsReady(
        Duration.ofMinutes(5), Duration.ofSeconds(60), Duration.ofHours(1), OptionalInt.empty()));
  }

  @Test
  void theManagersSettingsComeFromItsEnvironmentInSecondsMinutesOrHours() {
    assertThat(WaitForPodsReadySettings.from(Map.of(
            "KOORD4J_WAIT_FOR_PODS_READY_TIMEOUT", "10m",
            "KOORD4J_WAIT_FOR_PODS_READY_BACKOFF_BASE", "30",
            "KOORD4J_WAIT_FOR_PODS_READY_BACKOFF_MAX", "2h",
            "KOORD4J_WAIT_FOR_PODS_READY_BACKOFF_LIMIT_COUNT", " 3 ")))
        .isEqualTo(new WaitForPodsReady(
            Duration.ofMinutes(10), Duration.ofSeconds(30), Duration.ofHours(2), OptionalInt.of(3)));
  }

  @Test
  void aTimeoutOfZeroTurnsTheCheckOff() {
    assertThat(WaitForPodsReadySettings.from(Map.of("KOORD4J_WAIT_FOR_PODS_READY_TIMEOUT", "0s")).timeout())
        .isNull();
  }

  @Test
  void aBadValueIsRefusedNamingItsVariable() {
    assertThatThrownBy(() -> WaitForPodsReadySettings.from(Map.of("KOORD4J_WAIT_FOR_PODS_READY_TIMEOUT", "soon")))
        .hasMessage("KOORD4J_WAIT_FOR_PODS_READY_TIMEOUT must be a duration such as 90, 90s, 5m or 1h, not \"soon\"");
    assertThatThrownBy(() -> WaitForPodsReadySettings.from(Map.of("KOORD4J_WAIT_FOR_PODS_READY_BACKOFF_MAX", "1s")))
        .hasMessageContaining("KOORD4J_WAIT_FOR_PODS_READY_BACKOFF_MAX")
        .hasMessageContaining("0 < base <= max");
  }

  @Test
  void aQueueArgsOverrideTheManagersSettingsOneByOne() {
    Queue queue = queueWithArgs("""
        waitForPodsReadyTimeoutSeconds: 20
        requeuingBackoffLimitCount: 2
        podInitialBackoffSeconds: 5
        """);

    assertThat(QueueConfigs.waitForPodsReady(queue, WaitForPodsReady.DEFAULTS)).isEqualTo(new WaitForPodsReady(
        Duration.ofSeconds(20), Duration.ofSeconds(60), Duration.ofHours(1), OptionalInt.of(2)));
  }

  @Test
  void aQueueCanTurnTheCheckOffAndUnusableArgsLeaveTheManagersSettings() {
    assertThat(QueueConfigs.waitForPodsReady(queueWithArgs("waitForPodsReadyTimeoutSeconds: 0"),
            WaitForPodsReady.DEFAULTS).timeout())
        .isNull();
    assertThat(QueueConfigs.waitForPodsReady(queueWithArgs("requeuingBackoffMaxSeconds: 1"), WaitForPodsReady.DEFAULTS))
        .isEqualTo(WaitForPodsReady.DEFAULTS);
    assertThat(QueueConfigs.waitForPodsReady(queueWithArgs(": not yaml ["), WaitForPodsReady.DEFAULTS))
        .isEqualTo(WaitForPodsReady.DEFAULTS);
  }

  private static Queue queueWithArgs(String args) {
    Queue queue = new Queue();
    queue.setMetadata(new ObjectMetaBuilder().withName("team").withNamespace("koord-queue")
        .withAnnotations(Map.of(WellKnown.QUEUE_ARGS, args)).build());
    return queue;
  }
}
