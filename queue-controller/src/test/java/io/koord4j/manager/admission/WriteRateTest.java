package io.koord4j.manager.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class WriteRateTest {
  @Test
  void theRateAndBurstComeFromTheEnvironmentWithDefaults() {
    assertThat(WriteRate.from(Map.of())).isEqualTo(new WriteRate(50, 100));
    assertThat(WriteRate.from(Map.of(
        "KOORD4J_STATUS_WRITES_PER_SECOND", "0.5", "KOORD4J_STATUS_WRITE_BURST", " 20 ")))
        .isEqualTo(new WriteRate(0.5, 20));
  }

  @Test
  void aBadValueIsRefusedNamingItsVariableAndTheRule() {
    assertThatThrownBy(() -> WriteRate.from(Map.of("KOORD4J_STATUS_WRITES_PER_SECOND", "fast")))
        .hasMessage("KOORD4J_STATUS_WRITES_PER_SECOND must be a number above 0, not \"fast\"");
    assertThatThrownBy(() -> WriteRate.from(Map.of("KOORD4J_STATUS_WRITES_PER_SECOND", "0")))
        .hasMessage("KOORD4J_STATUS_WRITES_PER_SECOND must be a number above 0, not 0.0");
    assertThatThrownBy(() -> WriteRate.from(Map.of("KOORD4J_STATUS_WRITE_BURST", "1.5")))
        .hasMessage("KOORD4J_STATUS_WRITE_BURST must be a whole number of at least 1, not \"1.5\"");
    assertThatThrownBy(() -> WriteRate.from(Map.of("KOORD4J_STATUS_WRITE_BURST", "0")))
        .hasMessage("KOORD4J_STATUS_WRITE_BURST must be a whole number of at least 1, not 0");
  }
}
