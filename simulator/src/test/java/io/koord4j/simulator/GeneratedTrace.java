package io.koord4j.simulator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/** Small traces in the Alibaba CSV format, generated for tests. */
public final class GeneratedTrace {
  private GeneratedTrace() {}

  /** {@code big} nodes of 8 GPUs and {@code small} nodes of 2. */
  public static Path nodes(Path directory, int big, int small) throws IOException {
    StringBuilder csv = new StringBuilder("sn,cpu_milli,memory_mib,gpu,model\n");
    for (int i = 0; i < big; i++) {
      csv.append("big-").append(i).append(",96000,393216,8,G2\n");
    }
    for (int i = 0; i < small; i++) {
      csv.append("small-").append(i).append(",32000,131072,2,T4\n");
    }
    return Files.writeString(directory.resolve("nodes.csv"), csv);
  }

  /**
   * {@code count} tasks: a mix of CPU-only tasks, GPU shares of 10 to 90 %, whole GPUs and a few
   * 4- and 8-GPU tasks, each arriving a minute after the last and running 10 to 60 minutes.
   */
  public static Path tasks(Path directory, int count, long seed) throws IOException {
    SplittableRandom random = new SplittableRandom(seed);
    StringBuilder csv = new StringBuilder(
        "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n");
    for (int i = 0; i < count; i++) {
      int kind = random.nextInt(10);
      int gpus = kind == 0 ? 0 : kind < 6 ? 1 : kind < 9 ? 1 : random.nextBoolean() ? 4 : 8;
      int milli = gpus == 0 ? 0 : kind < 6 ? 100 * (1 + random.nextInt(9)) : 1000;
      long created = 60L * i;
      csv.append(String.format("task-%d,%d,%d,%d,%d,,LS,Running,%d,%d,%d%n",
          i, 2000 * (1 + random.nextInt(4)), 4096 * (1 + random.nextInt(4)), gpus, milli,
          created, created + 600 * (1 + random.nextInt(6)), created));
    }
    return Files.writeString(directory.resolve("tasks.csv"), csv);
  }
}
