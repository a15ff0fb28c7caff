package io.koord4j.webhook.admission.queue;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.koord4j.webhook.admission.Json;
import org.junit.jupiter.api.Test;

class QueueValidatorsTest {

  @Test
  void queuePolicyMustBeKnown() {
    assertThat(QueueValidator.violations(json("{\"spec\":{}}"))).isEmpty();
    assertThat(QueueValidator.violations(json("{\"spec\":{\"queuePolicy\":\"Block\"}}"))).isEmpty();
    assertThat(QueueValidator.violations(json("{\"spec\":{\"queuePolicy\":\"FIFO\"}}"))).isEmpty();
    assertThat(QueueValidator.violations(json("{\"spec\":{\"queuePolicy\":\"Intelligent\"}}"))).isEmpty();
    assertThat(QueueValidator.violations(json("{\"spec\":{\"queuePolicy\":\"Fair\"}}")))
        .containsExactly(
            "spec.queuePolicy: \"Fair\" is not supported; use Priority, Block or FIFO (legacy, "
                + "served as Priority) or Intelligent");
  }

  @Test
  void podSetIsFrozenWhileTheUnitIsAdmitted() {
    JsonNode running = unit("Running", 2);

    assertThat(QueueUnitValidator.violations(running, unit("Running", 3)))
        .containsExactly(
            "spec.podSet: cannot change while the unit is admitted (status.phase Running); quota "
                + "was reserved for the pod sets as they were");
    assertThat(QueueUnitValidator.violations(running, unit("Running", 2))).isEmpty();
  }

  @Test
  void podSetMayChangeBeforeAdmissionAndAfterTheEnd() {
    assertThat(QueueUnitValidator.violations(unit("Enqueued", 2), unit("Enqueued", 3))).isEmpty();
    assertThat(QueueUnitValidator.violations(unit("Succeed", 2), unit("Succeed", 3))).isEmpty();
    assertThat(QueueUnitValidator.violations(unit("Reserved", 2), unit("Reserved", 3))).hasSize(1);
    assertThat(QueueUnitValidator.violations(unit("Dequeued", 2), unit("Dequeued", 3))).hasSize(1);
  }

  private static JsonNode unit(String phase, int count) {
    return json("{\"spec\":{\"podSet\":[{\"name\":\"workers\",\"count\":" + count + "}]},"
        + "\"status\":{\"phase\":\"" + phase + "\"}}");
  }

  private static JsonNode json(String text) {
    try {
      return Json.MAPPER.readTree(text);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
