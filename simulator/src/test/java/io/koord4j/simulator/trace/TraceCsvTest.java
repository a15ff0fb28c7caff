package io.koord4j.simulator.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.koord4j.simulator.GeneratedTrace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceCsvTest {
  @TempDir Path dir;

  @Test
  void readsNodesAndTasksOfTheTraceFormat() throws IOException {
    List<NodeSpec> nodes = TraceCsv.nodes(GeneratedTrace.nodes(dir, 2, 1));
    Path tasks = Files.writeString(dir.resolve("t.csv"),
        "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n"
            + "a,4000,8192,1,460,V100M16|V100M32,LS,Running,10,110,12\n"
            + "b,88000,327680,8,1000,,BE,Succeeded,20,,20\n");

    List<TaskSpec> read = TraceCsv.tasks(tasks);

    assertThat(nodes).hasSize(3).first().isEqualTo(new NodeSpec("big-0", 96000, 393216, 8, "G2"));
    TaskSpec a = read.get(0);
    assertThat(a.shape()).isEqualTo(new TaskShape(4000, 8192, 1, 460, Set.of("V100M16", "V100M32")));
    assertThat(a.shape().isGpuShare()).isTrue();
    assertThat(a.runtimeSeconds()).isEqualTo(98);
    assertThat(a.queue()).isEqualTo(TraceCsv.DEFAULT_QUEUE);
    assertThat(read.get(1).shape().gpuDemandMilli()).isEqualTo(8000);
    assertThat(read.get(1).deletion()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void inflationReadsTaskFilesWithoutTimeColumnsAndReplayRefusesThemNamingTheColumn() throws IOException {
    // The layout of the published multi-GPU variants: no gpu_spec, qos, phase or time column.
    Path tasks = Files.writeString(dir.resolve("multigpu.csv"),
        "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n"
            + "a,6000,12288,1,460\n"
            + "b,88000,327680,8,1000\n"
            + "c,8000,30517,0,0\n");

    assertThat(TraceCsv.taskShapes(tasks)).containsExactly(
        new TaskShape(6000, 12288, 1, 460, Set.of()),
        new TaskShape(88000, 327680, 8, 1000, Set.of()),
        new TaskShape(8000, 30517, 0, 0, Set.of()));
    assertThatThrownBy(() -> TraceCsv.tasks(tasks))
        .isInstanceOf(InvalidTraceException.class)
        .hasMessageContaining("multigpu.csv: column creation_time is missing from the header; replay needs it");
  }

  @Test
  void shapesOfAFileWithTimesAreTheShapesOfItsTasks() throws IOException {
    Path tasks = GeneratedTrace.tasks(dir, 50, 7);

    assertThat(TraceCsv.taskShapes(tasks)).containsExactlyElementsOf(
        TraceCsv.tasks(tasks).stream().map(TaskSpec::shape).toList());
  }

  @Test
  void badCellsAreNamedWithFileLineColumnAndRule() throws IOException {
    Path tasks = Files.writeString(dir.resolve("bad.csv"),
        "name,cpu_milli,memory_mib,num_gpu,gpu_milli,creation_time\n"
            + "a,4000,8192,1,460,0\n"
            + "b,4000,8192,2,500,0\n");
    Path nodes = Files.writeString(dir.resolve("nodes.csv"), "sn,cpu_milli,memory_mib,gpu\nn1,many,1,1\n");

    assertThatThrownBy(() -> TraceCsv.tasks(tasks))
        .isInstanceOf(InvalidTraceException.class)
        .hasMessageContaining("bad.csv line 3: gpu_milli '500' must be 1..1000 for one GPU and 1000 for several");
    assertThatThrownBy(() -> TraceCsv.nodes(nodes))
        .hasMessageContaining("line 2: cpu_milli 'many' must be a whole number");
    assertThatThrownBy(() -> TraceCsv.tasks(nodes))
        .hasMessageContaining("nodes.csv: column num_gpu is missing from the header");
  }

  @Test
  void gangsAndExpectedRuntimesAreOptionalColumns() throws IOException {
    Path tasks = Files.writeString(dir.resolve("gangs.csv"),
        "name,cpu_milli,memory_mib,num_gpu,gpu_milli,creation_time,deletion_time,pods,expected_runtime\n"
            + "gang,60000,400000,8,1000,0,3600,16,5400\n"
            + "single,1000,1024,1,1000,0,60,,\n"
            + "none,1000,1024,1,1000,0,60,0,\n");

    assertThatThrownBy(() -> TraceCsv.tasks(tasks))
        .isInstanceOf(InvalidTraceException.class)
        .hasMessageContaining("gangs.csv line 4: pods '0' must be at least 1");
    List<String> valid = Files.readAllLines(tasks).subList(0, 3);
    List<TaskSpec> read = TraceCsv.tasks(Files.write(dir.resolve("valid.csv"), valid));
    assertThat(read).extracting(TaskSpec::pods, TaskSpec::expectedRuntimeSeconds)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(16, 5400L), org.assertj.core.groups.Tuple.tuple(1, 0L));
  }
}
