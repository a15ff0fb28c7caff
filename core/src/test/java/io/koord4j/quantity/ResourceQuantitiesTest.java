package io.koord4j.quantity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.quota.ResourceVector;
import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ResourceQuantitiesTest {

  private static final String FIELD = "spec.containers[0].resources.requests.cpu";

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource({
    "500m, 0.5",
    "2, 2",
    "0.4, 0.4",
    "+1, 1",
    ".5, 0.5",
    "1Ki, 1024",
    "1Gi, 1073741824",
    "1.5Gi, 1610612736",
    "10G, 10000000000",
    "1.5k, 1500",
    "1e3, 1000",
    "5u, 0.000005",
    "7n, 0.000000007",
    "1Ei, 1152921504606846976",
    "1E, 1000000000000000000",
    "1.e3, 1000",
    "2e-0, 2",
    "9223372036854775807999999999n, 9223372036854775807.999999999",
    "1e18, 1000000000000000000",
    "1e-64, 1E-64",
  })
  void parsesEveryQuantityFormExactly(String quantity, String expected) {
    assertThat(ResourceQuantities.parse(new Quantity(quantity), FIELD))
        .isEqualTo(new BigDecimal(expected));
  }

  @ParameterizedTest
  @ValueSource(strings = {"12x", "abc", "1.2.3", " 1", "1e", "1Gb", "m"})
  void rejectsMalformedQuantitiesNamingTheField(String quantity) {
    assertThatThrownBy(() -> ResourceQuantities.parse(new Quantity(quantity), FIELD))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(FIELD + ": \"" + quantity + "\" is not a valid quantity");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "1e500000001 | has exponent 500000001, beyond the ±64 a quantity may have",
        "1E-999999999 | has exponent -999999999, beyond the ±64 a quantity may have",
        "1e65 | has exponent 65, beyond the ±64 a quantity may have",
        "12345678901234567890123456789012345678901 | has 41 digits, more than the 40 a quantity"
            + " may have",
      })
  void refusesQuantitiesBeyondTheBoundsNamingTheFieldTheRuleAndTheValue(
      String quantity, String rule) {
    assertThatThrownBy(() -> ResourceQuantities.parse(new Quantity(quantity), FIELD))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(FIELD + ": \"" + quantity + "\" " + rule);
  }

  @Test
  void refusesAVeryLongQuantityQuotingOnlyItsStart() {
    String quantity = "1".repeat(1_000_000);

    assertThatThrownBy(() -> ResourceQuantities.parse(new Quantity(quantity), FIELD))
        .hasMessage(
            FIELD + ": \"1111111111111111…\" has 1000000 characters, more than the 64 a quantity"
                + " may have");
  }

  @Test
  void rejectsNegativeQuantities() {
    assertThatThrownBy(() -> ResourceQuantities.parse(new Quantity("-1"), FIELD))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(FIELD + ": \"-1\" must not be negative");
  }

  @ParameterizedTest(name = "{0} renders as {1}")
  @CsvSource({
    "2, 2",
    "2.000, 2",
    "0.5, 500m",
    "2.25, 2250m",
    "1073741824, 1073741824",
    "1E+3, 1000",
    "0.000005, 5u",
    "0.0000015, 1500n",
    "0.0000000001, 0.0000000001",
  })
  void rendersAmountsAsShortExactQuantities(String amount, String expected) {
    Quantity quantity = ResourceQuantities.toQuantity(new BigDecimal(amount));

    assertThat(quantity.toString()).isEqualTo(expected);
    assertThat(ResourceQuantities.parse(quantity, FIELD)).isEqualByComparingTo(amount);
  }

  @ParameterizedTest(name = "{0} renders as {1}")
  @CsvSource({
    "1E+60, 1e60",
    "1E-70, 1e-64",
    "1E+120, 9999999999999999999999999999999999999999e64",
  })
  void rendersAmountsTooLongToReadBackRoundedUpWithinTheBounds(String amount, String expected) {
    Quantity quantity = ResourceQuantities.toQuantity(new BigDecimal(amount));

    assertThat(quantity.toString()).isEqualTo(expected);
    assertThat(ResourceQuantities.parse(quantity, FIELD)).isEqualByComparingTo(expected);
  }

  @Test
  void aSumOfAmountsFarApartIsWrittenRoundedUpSoItReadsBack() {
    Map<String, BigDecimal> sum =
        ResourceQuantities.sum(
            Map.of("cpu", new BigDecimal("1E+60")), Map.of("cpu", new BigDecimal("0.001")));

    Quantity written = ResourceQuantities.toQuantities(sum).get("cpu");

    assertThat(written.toString()).isEqualTo("1000000000000000000000000000000000000001e21");
    assertThat(ResourceQuantities.parse(written, FIELD)).isGreaterThan(sum.get("cpu"));
  }

  @Test
  void aWholeNumberIsAtMostALong() {
    assertThat(ResourceQuantities.wholeNumber("gpus", "8", IllegalStateException::new))
        .isEqualTo(8);
    assertThatThrownBy(
            () -> ResourceQuantities.wholeNumber("gpus", "1e19", IllegalStateException::new))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("gpus: \"1e19\" must be a whole number from 0 to 9223372036854775807");
    assertThatThrownBy(
            () -> ResourceQuantities.wholeNumber("gpus", "1e99", IllegalStateException::new))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("gpus: \"1e99\" has exponent 99, beyond the ±64 a quantity may have");
  }

  @Test
  void sumsAndMaximaTreatAMissingResourceAsZero() {
    Map<String, BigDecimal> a = Map.of("cpu", new BigDecimal("0.5"), "memory", new BigDecimal(10));
    Map<String, BigDecimal> b =
        Map.of("cpu", new BigDecimal("1.50"), "nvidia.com/gpu", BigDecimal.ONE);

    assertThat(ResourceQuantities.sum(a, b))
        .containsExactly(
            Map.entry("cpu", new BigDecimal(2)),
            Map.entry("memory", new BigDecimal(10)),
            Map.entry("nvidia.com/gpu", BigDecimal.ONE));
    assertThat(ResourceQuantities.max(a, b))
        .containsExactly(
            Map.entry("cpu", new BigDecimal("1.5")),
            Map.entry("memory", new BigDecimal(10)),
            Map.entry("nvidia.com/gpu", BigDecimal.ONE));
  }

  @Test
  void sumsAndDifferencesOfBaseUnitsStopAtTheBoundsOfALongInsteadOfWrapping() {
    assertThat(ResourceQuantities.saturatedSum(Long.MAX_VALUE, Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
    assertThat(ResourceQuantities.saturatedSum(Long.MIN_VALUE, -1)).isEqualTo(Long.MIN_VALUE);
    assertThat(ResourceQuantities.saturatedDifference(-5, Long.MAX_VALUE)).isEqualTo(Long.MIN_VALUE);
    assertThat(ResourceQuantities.saturatedDifference(0, Long.MIN_VALUE)).isEqualTo(Long.MAX_VALUE);
    assertThat(ResourceQuantities.saturatedSum(40, 2)).isEqualTo(42);
    assertThat(ResourceQuantities.saturatedDifference(40, 50)).isEqualTo(-10);
  }

  @Test
  void multipliesEveryAmount() {
    assertThat(ResourceQuantities.times(Map.of("cpu", new BigDecimal("0.25")), 4))
        .containsExactly(Map.entry("cpu", BigDecimal.ONE));
  }

  @Test
  void cpuBecomesMilliCoresAndMemoryBytesRoundingUp() {
    ResourceVector vector =
        ResourceQuantities.toVector(
            Map.of(
                "cpu", new Quantity("1500m"),
                "memory", new Quantity("1Gi"),
                "nvidia.com/gpu", new Quantity("2"),
                "ephemeral-storage", new Quantity("0.5")));

    assertThat(vector.asMap())
        .containsEntry("cpu", 1500L)
        .containsEntry("memory", 1L << 30)
        .containsEntry("nvidia.com/gpu", 2L)
        .containsEntry("ephemeral-storage", 1L);
  }

  @Test
  void rendersBackInTheShortestExactNotation() {
    Map<String, Quantity> quantities =
        ResourceQuantities.toQuantities(
            ResourceVector.of("cpu", 2500, "memory", 3L << 30, "nvidia.com/gpu", 4));

    assertThat(quantities)
        .containsEntry("cpu", new Quantity("2500m"))
        .containsEntry("memory", new Quantity("3Gi"))
        .containsEntry("nvidia.com/gpu", new Quantity("4"));
    assertThat(ResourceQuantities.toVector(quantities).asMap()).containsEntry("memory", 3L << 30);
  }
}
