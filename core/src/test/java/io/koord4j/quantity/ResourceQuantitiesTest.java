package io.koord4j.quantity;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.quota.ResourceVector;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResourceQuantitiesTest {

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
