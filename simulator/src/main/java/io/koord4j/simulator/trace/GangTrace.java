package io.koord4j.simulator.trace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A generated trace where backfill matters: nodes of 8 GPUs, every pod takes a whole node, and
 * large gangs (half or all of the nodes, for 30 to 120 minutes) arrive among short jobs (one or
 * two nodes, 2 to 20 minutes). Arrivals are Poisson at the rate that offers the cluster {@code
 * load} of its GPU time. Each job declares an expected runtime of 1 to 2 times what it runs, as
 * users set a time limit with room to spare.
 */
public final class GangTrace {
  static final int NODE_MILLI_CPU = 64_000;
  static final int NODE_MEMORY_MIB = 524_288;
  static final int NODE_GPUS = 8;
  private static final double GANG_SHARE = 0.15;

  /**
   * @param nodes cluster size, at least 2
   * @param jobs how many jobs arrive
   * @param load offered GPU time as a share of the cluster's, above 0
   */
  public record Settings(int nodes, int jobs, double load, long seed) {
    public Settings {
      if (nodes < 2) {
        throw new IllegalArgumentException("--cluster-nodes must be at least 2: " + nodes);
      }
      if (jobs < 1) {
        throw new IllegalArgumentException("--jobs must be at least 1: " + jobs);
      }
      if (!(load > 0)) {
        throw new IllegalArgumentException("--load must be above 0: " + load);
      }
    }
  }

  private GangTrace() {}

  /** Writes {@code nodes.csv} and {@code tasks.csv} into {@code directory}. */
  public static void write(Path directory, Settings settings) {
    try {
      Files.createDirectories(directory);
      Files.writeString(directory.resolve("nodes.csv"), nodes(settings.nodes()));
      Files.writeString(directory.resolve("tasks.csv"), tasks(settings));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the trace to " + directory + ": " + e.getMessage(), e);
    }
  }

  static String nodes(int count) {
    StringBuilder csv = new StringBuilder("sn,cpu_milli,memory_mib,gpu,model\n");
    for (int i = 0; i < count; i++) {
      csv.append(String.format(Locale.ROOT, "node-%d,%d,%d,%d,A100%n", i, NODE_MILLI_CPU, NODE_MEMORY_MIB, NODE_GPUS));
    }
    return csv.toString();
  }

  static String tasks(Settings settings) {
    SplittableRandom random = new SplittableRandom(settings.seed());
    int half = settings.nodes() / 2;
    // Mean node-seconds of one job, to set the arrival rate that offers the requested load.
    double gangNodeSeconds = (half + settings.nodes()) / 2.0 * 75 * 60;
    double shortNodeSeconds = 1.5 * 11 * 60;
    double meanJob = GANG_SHARE * gangNodeSeconds + (1 - GANG_SHARE) * shortNodeSeconds;
    double meanGap = meanJob / (settings.nodes() * settings.load());
    StringBuilder csv = new StringBuilder(
        "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,creation_time,deletion_time,scheduled_time,"
            + "pods,expected_runtime\n");
    double now = 0;
    for (int i = 0; i < settings.jobs(); i++) {
      boolean gang = random.nextDouble() < GANG_SHARE;
      int pods = gang ? (random.nextBoolean() ? half : settings.nodes()) : 1 + random.nextInt(2);
      long runtime = 60L * (gang ? 30 + random.nextInt(91) : 2 + random.nextInt(19));
      long expected = (long) Math.ceil(runtime * (1 + random.nextDouble()));
      long created = (long) now;
      csv.append(String.format(Locale.ROOT, "%s-%d,%d,%d,%d,1000,,%d,%d,%d,%d,%d%n",
          gang ? "gang" : "short", i, NODE_MILLI_CPU - 4000, NODE_MEMORY_MIB - 65_536, NODE_GPUS,
          created, created + runtime, created, pods, expected));
      now += -Math.log(1 - random.nextDouble()) * meanGap;
    }
    return csv.toString();
  }
}
