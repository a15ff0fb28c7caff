package io.koord4j.simulator.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.koord4j.simulator.GeneratedTrace;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceVariantTest {
  private static final double TOLERANCE = 0.03;

  @TempDir Path dir;
  // 4 nodes of 8 G2 GPUs and 4 of 2 T4 GPUs: a model-bound task of one GPU lands on T4 one time in 5.
  private List<NodeSpec> nodes;
  // 10 % CPU-only, 50 % shares of one GPU, 30 % one whole GPU, 10 % 4 or 8 GPUs.
  private List<TaskShape> trace;

  @BeforeEach
  void generateTrace() throws IOException {
    nodes = TraceCsv.nodes(GeneratedTrace.nodes(dir, 4, 4));
    trace = TraceCsv.taskShapes(GeneratedTrace.tasks(dir, 4000, 11));
  }

  @Test
  void everyShareComesOutNearItsTargetFromTheTracesOwnTaskShapes() {
    List<TaskShape> variant =
        TraceVariant.parse("fractional=0.6,multi-gpu=0.25,model=0.33,cpu-only=0.3").generate(trace, nodes, 7);

    assertThat(variant).hasSameSizeAs(trace);
    assertThat(VariantShare.FRACTIONAL.of(variant)).isCloseTo(0.6, within(TOLERANCE));
    assertThat(VariantShare.MULTI_GPU.of(variant)).isCloseTo(0.25, within(TOLERANCE));
    assertThat(VariantShare.MODEL.of(variant)).isCloseTo(0.33, within(TOLERANCE));
    assertThat(VariantShare.CPU_ONLY.of(variant)).isCloseTo(0.3, within(TOLERANCE));
    Set<TaskShape> traceShapes = Set.copyOf(trace);
    assertThat(variant).allSatisfy(task -> assertThat(traceShapes).contains(task.withModels(Set.of())));
  }

  @Test
  void sharesNotGivenStayAsInTheTrace() {
    List<TaskShape> variant = TraceVariant.parse("cpu-only=0.4").generate(trace, nodes, 7);

    assertThat(VariantShare.CPU_ONLY.of(variant)).isCloseTo(0.4, within(TOLERANCE));
    for (VariantShare kept : List.of(VariantShare.FRACTIONAL, VariantShare.MULTI_GPU, VariantShare.MODEL)) {
      assertThat(kept.of(variant)).as(kept.key()).isCloseTo(kept.of(trace), within(TOLERANCE));
    }
  }

  @Test
  void theGpuDemandAFractionalTargetLeavesIsSharedByWholeAndMultiGpuTasksAsInTheTrace() {
    List<TaskShape> variant = TraceVariant.parse("fractional=0.8").generate(trace, nodes, 7);

    double multiGpuOfTheRest = VariantShare.MULTI_GPU.of(trace) / (1 - VariantShare.FRACTIONAL.of(trace));
    assertThat(VariantShare.FRACTIONAL.of(variant)).isCloseTo(0.8, within(TOLERANCE));
    assertThat(VariantShare.MULTI_GPU.of(variant)).isCloseTo(0.2 * multiGpuOfTheRest, within(TOLERANCE));
  }

  @Test
  void aModelBoundTaskIsBoundToAModelWhoseNodesCanHostItInProportionToTheirGpus() {
    List<TaskShape> bound = TraceVariant.parse("model=1").generate(trace, nodes, 7).stream()
        .filter(task -> task.gpuCount() > 0)
        .toList();

    assertThat(bound).allSatisfy(task -> assertThat(task.models()).hasSize(1));
    // Only G2 nodes have 4 or 8 GPUs.
    assertThat(bound).filteredOn(task -> task.gpuCount() > 2)
        .isNotEmpty()
        .allSatisfy(task -> assertThat(task.models()).containsExactly("G2"));
    List<TaskShape> oneGpu = bound.stream().filter(task -> task.gpuCount() == 1).toList();
    double onT4 = (double) oneGpu.stream().filter(task -> task.models().contains("T4")).count() / oneGpu.size();
    assertThat(onT4).isCloseTo(8.0 / 40, within(TOLERANCE));
  }

  @Test
  void theSameSeedDrawsTheSameVariantAndAnotherSeedAnother() {
    TraceVariant variant = TraceVariant.parse("fractional=0.8,model=0.33");

    assertThat(variant.generate(trace, nodes, 7)).isEqualTo(variant.generate(trace, nodes, 7));
    assertThat(variant.generate(trace, nodes, 8)).isNotEqualTo(variant.generate(trace, nodes, 7));
  }

  @Test
  void sharesThatCannotBeMetAreRefusedNamingTheShareAndTheRule() {
    List<TaskShape> gpuOnly = trace.stream().filter(task -> task.gpuCount() > 0).toList();
    List<TaskShape> sharesOnly = trace.stream().filter(TaskShape::isGpuShare).toList();

    assertThatThrownBy(() -> TraceVariant.parse("fractional=1.5"))
        .hasMessage("--variant: fractional '1.5' must be a fraction from 0 to 1");
    assertThatThrownBy(() -> TraceVariant.parse("gpushare=0.4"))
        .hasMessage("--variant: unknown share 'gpushare'; known: fractional, multi-gpu, model, cpu-only");
    assertThatThrownBy(() -> TraceVariant.parse("model=0.2,model=0.3"))
        .hasMessage("--variant: model is given twice");
    assertThatThrownBy(() -> TraceVariant.parse("fractional=0.7,multi-gpu=0.5").generate(trace, nodes, 7))
        .hasMessage("--variant: fractional and multi-gpu add up to more than 1");
    assertThatThrownBy(() -> TraceVariant.parse("cpu-only=0.2").generate(gpuOnly, nodes, 7))
        .hasMessage("--variant: the trace has no cpu-only task to draw from");
    assertThatThrownBy(() -> TraceVariant.parse("multi-gpu=0.3").generate(sharesOnly, nodes, 7))
        .hasMessage("--variant: the trace has no multi-gpu task to draw from");
    assertThatThrownBy(() -> TraceVariant.parse("fractional=0.6").generate(sharesOnly, nodes, 7))
        .hasMessage(
            "--variant: 0.40 of the GPU demand is left to whole-gpu and multi-gpu tasks, and the trace has none");
  }
}
