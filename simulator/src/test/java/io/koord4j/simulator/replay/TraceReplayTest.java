package io.koord4j.simulator.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.koord4j.api.WellKnown;
import io.koord4j.quota.QuotaSpec;
import io.koord4j.quota.ResourceVector;
import io.koord4j.simulator.GeneratedTrace;
import io.koord4j.simulator.placement.Policies;
import io.koord4j.simulator.placement.TargetWorkload;
import io.koord4j.simulator.replay.TraceReplay.Result;
import io.koord4j.simulator.replay.TraceReplay.TaskOutcome;
import io.koord4j.simulator.report.ReplayReport;
import io.koord4j.simulator.trace.GangTrace;
import io.koord4j.simulator.trace.NodeSpec;
import io.koord4j.simulator.trace.TaskShape;
import io.koord4j.simulator.trace.TaskSpec;
import io.koord4j.simulator.trace.TraceCsv;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceReplayTest {
  @TempDir Path dir;

  private Result replay(List<NodeSpec> nodes, List<TaskSpec> tasks, String policy) {
    return replay(nodes, tasks, policy, Queueing.PRIORITY);
  }

  private Result replay(List<NodeSpec> nodes, List<TaskSpec> tasks, String policy, Queueing queueing) {
    var workload = TargetWorkload.of(tasks.stream().map(TaskSpec::shape).toList());
    return new TraceReplay(nodes, Policies.create(policy, workload), 1, queueing).run(tasks);
  }

  private static double meanWait(Result result) {
    return result.outcomes().stream().mapToLong(TaskOutcome::waitSeconds).average().orElseThrow();
  }

  @Test
  void backfillShortensWaitsAndRaisesUseAgainstBlockingWithoutStartingAnyReservedUnitLate() {
    GangTrace.write(dir, new GangTrace.Settings(8, 300, 0.9, 3));
    List<NodeSpec> nodes = TraceCsv.nodes(dir.resolve("nodes.csv"));
    List<TaskSpec> tasks = TraceCsv.tasks(dir.resolve("tasks.csv"));

    Result blocking = replay(nodes, tasks, "koord4j", Queueing.BLOCK);
    Result backfilled = replay(nodes, tasks, "koord4j", Queueing.BACKFILL);

    assertThat(backfilled.policy()).isEqualTo("koord4j+backfill");
    assertThat(backfilled.reservedTasks()).isPositive();
    assertThat(backfilled.lateStarts()).isEmpty();
    assertThat(blocking.reservedTasks()).isZero();
    assertThat(meanWait(backfilled)).isLessThan(0.75 * meanWait(blocking));
    assertThat(backfilled.gpuAllocation()).isGreaterThan(blocking.gpuAllocation());
  }

  @Test
  void aGangStartsAllItsPodsAtOnceOrWaits() {
    List<NodeSpec> twoNodes =
        List.of(new NodeSpec("a", 16000, 65536, 2, "T4"), new NodeSpec("b", 16000, 65536, 2, "T4"));
    TaskShape twoGpus = new TaskShape(1000, 1024, 2, 1000, Set.of());
    List<TaskSpec> tasks = List.of(
        new TaskSpec("single", twoGpus, 0, 100, 0, "q", 0, 1, 0),
        new TaskSpec("gang", twoGpus, 1, 51, 1, "q", 0, 2, 0),
        new TaskSpec("gang-of-three", twoGpus, 1, 51, 1, "q", 0, 3, 0));

    Result result = replay(twoNodes, tasks, "koord4j");

    assertThat(result.outcomes()).extracting(o -> o.task().name(), TaskOutcome::start)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("single", 0L),
            org.assertj.core.groups.Tuple.tuple("gang", 100L),
            org.assertj.core.groups.Tuple.tuple("gang-of-three", -1L));
  }

  @Test
  void tasksOfALeafQuotaWaitForItsMaxWhileAnotherLeafsGoAheadAndTheOutcomesSayWhereEachPodWent() {
    List<NodeSpec> nodes =
        List.of(new NodeSpec("big", 32000, 131072, 4, "T4"), new NodeSpec("small", 16000, 65536, 2, "T4"));
    ResourceVector fourGpus = ResourceVector.of(WellKnown.NVIDIA_GPU, 4);
    ResourceVector twoGpus = ResourceVector.of(WellKnown.NVIDIA_GPU, 2);
    List<QuotaSpec> tree = List.of(
        QuotaSpec.group("org", "", ResourceVector.of(WellKnown.NVIDIA_GPU, 6), ResourceVector.of(WellKnown.NVIDIA_GPU, 6)),
        QuotaSpec.leaf("a", "org", twoGpus, twoGpus),
        QuotaSpec.leaf("b", "org", fourGpus, fourGpus));
    TaskShape oneGpu = new TaskShape(1000, 1024, 1, 1000, Set.of());
    List<TaskSpec> tasks = List.of(
        new TaskSpec("a-1", new TaskShape(1000, 1024, 2, 1000, Set.of()), 0, 100, 0, "a", 0),
        new TaskSpec("a-2", oneGpu, 10, 60, 10, "a", 0),
        new TaskSpec("a-3", oneGpu, 20, 70, 20, "a", 5),
        new TaskSpec("b-1", oneGpu, 30, 80, 30, "b", 0, 2, 0));

    Result result = new TraceReplay(
        nodes, Policies.create("koord4j", List.of()), 1, Queueing.PRIORITY, tree).run(tasks);

    // a-1 fills leaf a; b-1 goes ahead of a-2 and a-3; a-3, of higher priority, passes a-2.
    assertThat(result.admissions()).containsExactly("a-1", "b-1", "a-3", "a-2");
    assertThat(result.outcomes()).filteredOn(o -> o.task().name().equals("a-3")).singleElement()
        .extracting(TaskOutcome::start).isEqualTo(100L);
    assertThat(result.outcomes()).filteredOn(o -> o.task().name().equals("a-1")).singleElement()
        .satisfies(o -> assertThat(o.pods()).singleElement().satisfies(pod -> assertThat(pod.gpus()).hasSize(2)));
    assertThat(result.outcomes()).filteredOn(o -> o.task().name().equals("b-1")).singleElement()
        .satisfies(o -> assertThat(o.pods()).hasSize(2)
            .allSatisfy(pod -> assertThat(pod.node()).isIn("big", "small")));
  }

  @Test
  void tasksWaitForRoomAndStartInTheirArrivalOrder() {
    List<NodeSpec> oneNode = List.of(new NodeSpec("n", 16000, 65536, 2, "T4"));
    List<TaskSpec> tasks = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      // Each takes both GPUs for 100 s; all arrive within 3 s.
      tasks.add(new TaskSpec("t" + i, new TaskShape(1000, 1024, 2, 1000, Set.of()), i, i + 100, i, "q", 0));
    }
    tasks.add(new TaskSpec("too-big", new TaskShape(1000, 1024, 4, 1000, Set.of()), 0, 100, 0, "q", 0));

    Result result = replay(oneNode, tasks, "koord4j");

    List<TaskOutcome> started = result.outcomes().stream().filter(o -> o.start() >= 0).toList();
    assertThat(started).extracting(o -> o.task().name()).containsExactly("t0", "t1", "t2", "t3");
    for (int i = 1; i < started.size(); i++) {
      // One at a time: each starts when the one before ends.
      assertThat(started.get(i).start()).isGreaterThanOrEqualTo(started.get(i - 1).start() + 100);
    }
    assertThat(started.get(0).waitSeconds()).isZero();
    assertThat(result.outcomes()).filteredOn(o -> o.task().name().equals("too-big"))
        .singleElement().extracting(TaskOutcome::start).isEqualTo(-1L);
    assertThat(result.gpuAllocation()).isBetween(0.9, 1.0);
  }

  @Test
  void aGeneratedTraceReplaysTheSameForASeedAndReportsPerQueue() throws IOException {
    List<NodeSpec> nodes = TraceCsv.nodes(GeneratedTrace.nodes(dir, 2, 2));
    List<TaskSpec> tasks = TraceCsv.tasks(GeneratedTrace.tasks(dir, 300, 4));

    Result first = replay(nodes, tasks, "koord4j");
    Result again = replay(nodes, tasks, "koord4j");
    ReplayReport report = new ReplayReport(List.of(first, replay(nodes, tasks, "fgd")));
    report.write(dir.resolve("out"), "# test");

    assertThat(again.outcomes()).extracting(TaskOutcome::start)
        .containsExactlyElementsOf(first.outcomes().stream().map(TaskOutcome::start).toList());
    assertThat(first.outcomes()).allSatisfy(o -> assertThat(o.start()).isGreaterThanOrEqualTo(o.task().creation()));
    assertThat(report.figures()).extracting(ReplayReport.QueueFigures::policy).containsExactly("koord4j", "fgd");
    assertThat(report.figures().get(0).p95Wait()).isGreaterThan(0);
    assertThat(Files.readString(dir.resolve("out/replay.md"))).contains("| koord4j | default | 300 | 0 |");
  }
}
