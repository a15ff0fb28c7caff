package io.koord4j.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodRequestsTest {

  private static final String SPEC = "spec.template.spec";
  private static final BigDecimal MI = BigDecimal.valueOf(1024 * 1024);

  @Test
  void sumsRegularContainersAndAddsPodOverhead() {
    // (100m + 1500m + 0.4) + 250m overhead; (100Mi + 1.5Gi + 100Mi) + 120Mi overhead.
    assertThat(requestsOf("multi-container"))
        .containsExactly(
            Map.entry("cpu", new BigDecimal("2.25")),
            Map.entry("ephemeral-storage", new BigDecimal("10000000000")),
            Map.entry("memory", mebibytes(1856)));
  }

  @Test
  void takesTheLargestInitContainerWhenItExceedsTheRunningPod() {
    // cpu from fetch-dataset (2 > 750m), memory from unpack (8Gi > 1Gi + 128Mi).
    assertThat(requestsOf("big-init"))
        .containsExactly(
            Map.entry("cpu", new BigDecimal(2)), Map.entry("memory", mebibytes(8 * 1024)));
  }

  @Test
  void addsSidecarsToTheRunningPodAndToInitContainersStartedAfterThem() {
    // Init peak: migrate (1) beside log-shipper (100m) = 1.1 cpu, 320Mi.
    // Running: main (300m, 512Mi) + both sidecars (300m, 192Mi) = 600m, 704Mi.
    assertThat(requestsOf("sidecar"))
        .containsExactly(
            Map.entry("cpu", new BigDecimal("1.1")), Map.entry("memory", mebibytes(704)));
  }

  @Test
  void aSidecarStartedLastStillCountsWithTheSidecarsBeforeIt() {
    PodSpec spec =
        new PodSpecBuilder().withInitContainers(sidecar("a", "1"), sidecar("b", "2")).build();

    assertThat(PodRequests.of(spec, SPEC)).containsExactly(Map.entry("cpu", new BigDecimal(3)));
  }

  @Test
  void aMissingRequestDefaultsToTheLimit() {
    // cpu has its own request (250m < limit 1); memory and GPUs come from their limits.
    assertThat(requestsOf("limits-only"))
        .containsExactly(
            Map.entry("cpu", new BigDecimal("0.25")),
            Map.entry("memory", mebibytes(2 * 1024)),
            Map.entry("nvidia.com/gpu", new BigDecimal(2)));
  }

  @Test
  void aPodWithoutResourcesRequestsNothing() {
    assertThat(requestsOf("plain")).isEmpty();
  }

  @Test
  void anInvalidQuantityNamesItsField() {
    assertThatThrownBy(() -> requestsOf("invalid-quantity"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            SPEC + ".containers[1].resources.requests.cpu: \"abc\" is not a valid quantity");
  }

  @Test
  void aQuantityBeyondTheBoundsNamesItsField() {
    PodSpec stalling = specOf("limits-only");
    stalling.getContainers().get(0).getResources().getRequests()
        .put("cpu", new Quantity("1E-999999999"));

    assertThatThrownBy(() -> PodRequests.of(stalling, SPEC))
        .hasMessage(
            SPEC + ".containers[0].resources.requests.cpu: \"1E-999999999\" has exponent"
                + " -999999999, beyond the ±64 a quantity may have");
  }

  @Test
  void invalidLimitsInitContainersAndOverheadAreNamedToo() {
    PodSpec badLimit = specOf("limits-only");
    badLimit.getContainers().get(0).getResources().getLimits()
        .put("nvidia.com/gpu", new Quantity("12x"));
    PodSpec badInit = specOf("big-init");
    badInit.getInitContainers().get(1).getResources().getRequests()
        .put("memory", new Quantity("-8Gi"));
    PodSpec badOverhead = specOf("multi-container");
    badOverhead.getOverhead().put("cpu", new Quantity("lots"));

    assertThatThrownBy(() -> PodRequests.of(badLimit, SPEC))
        .hasMessage(
            SPEC
                + ".containers[0].resources.limits[nvidia.com/gpu]:"
                + " \"12x\" is not a valid quantity");
    assertThatThrownBy(() -> PodRequests.of(badInit, SPEC))
        .hasMessage(
            SPEC + ".initContainers[1].resources.requests.memory: \"-8Gi\" must not be negative");
    assertThatThrownBy(() -> PodRequests.of(badOverhead, SPEC))
        .hasMessage(SPEC + ".overhead.cpu: \"lots\" is not a valid quantity");
  }

  private static Container sidecar(String name, String cpu) {
    return new ContainerBuilder()
        .withName(name)
        .withRestartPolicy("Always")
        .withNewResources()
        .addToRequests("cpu", new Quantity(cpu))
        .endResources()
        .build();
  }

  private static Map<String, BigDecimal> requestsOf(String fixture) {
    return PodRequests.of(specOf(fixture), SPEC);
  }

  private static PodSpec specOf(String fixture) {
    return Fixtures.job(fixture).getSpec().getTemplate().getSpec();
  }

  private static BigDecimal mebibytes(long count) {
    return MI.multiply(BigDecimal.valueOf(count));
  }
}
