package io.koord4j.quantity;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResourceNamesTest {
  @Test
  void deprecatedNamesBecomeTheirSuccessorsAndOthersStay() {
    Map<String, String> list =
        Map.of(
            "kubernetes.io/gpu", "100", "koordinator.sh/batch-cpu", "1000",
            "kubernetes.io/rdma", "1", "cpu", "1");

    assertThat(ResourceNames.current(list))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "koordinator.sh/gpu", "100", "kubernetes.io/batch-cpu", "1000",
                "koordinator.sh/rdma", "1", "cpu", "1"));
  }

  @Test
  void theCurrentNameWinsWhenBothAreGiven() {
    assertThat(ResourceNames.current(Map.of("kubernetes.io/gpu-core", "50", "koordinator.sh/gpu-core", "100")))
        .containsExactlyEntriesOf(Map.of("koordinator.sh/gpu-core", "100"));
  }

  @Test
  void amountsBeyondALongCountAsUnlimited() {
    assertThat(ResourceQuantities.baseUnits("cpu", new BigDecimal("1844674407370955161")))
        .isEqualTo(Long.MAX_VALUE);
  }
}
