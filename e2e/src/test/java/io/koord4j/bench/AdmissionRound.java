package io.koord4j.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * What one system's block of a round measured, by job index ({@code System.nanoTime()}; 0 where a
 * create failed): when each create was sent, when the job was first seen running, when all its
 * pods were first seen and when it was first seen complete.
 *
 * @param held jobs seen suspended before they ran (all of them, for a queue)
 * @param writes API writes served during the block, by resource, from every client
 */
record AdmissionRound(
    AdmissionSystem system,
    int round,
    long[] sent,
    long[] started,
    long[] podsExist,
    long[] completed,
    int held,
    LoadResult creation,
    double loadStart,
    double loadEnd,
    Map<String, Double> writes) {

  /** Jobs that started. */
  int admitted() {
    return (int) Arrays.stream(started).filter(t -> t != 0).count();
  }

  /** From the first create sent to the last job seen running. */
  double wallSeconds() {
    return seconds(started);
  }

  /** From the first create sent to the last job's pods all seen. */
  double allPodsSeconds() {
    return seconds(podsExist);
  }

  private double seconds(long[] times) {
    long first = Arrays.stream(sent).filter(t -> t != 0).min().orElse(0);
    long last = Arrays.stream(times).max().orElse(0);
    return (last - first) / 1e9;
  }

  /**
   * Mean time from admission to completion, in seconds: how long a job holds its quota, the run
   * time of its pods and the control plane's work around them.
   */
  double admissionToCompletionSeconds() {
    return IntStream.range(0, started.length)
        .filter(i -> started[i] != 0 && completed[i] != 0)
        .mapToLong(i -> completed[i] - started[i])
        .average()
        .orElse(Double.NaN) / 1e9;
  }

  /** Create-to-admission of the started jobs of one queue (all queues for a negative one). */
  LoadResult timeToAdmission(List<AdmissionWorkload.JobShape> jobs, int queue) {
    long[] latencies =
        IntStream.range(0, started.length)
            .filter(i -> started[i] != 0 && (queue < 0 || jobs.get(i).queue() == queue))
            .mapToLong(i -> started[i] - sent[i])
            .toArray();
    return new LoadResult(latencies, 0, Optional.empty(), 0);
  }

  /** Of the first {@code share} of admissions, how many went to each queue. */
  int[] firstAdmittedByQueue(List<AdmissionWorkload.JobShape> jobs, double share) {
    int[] counts = new int[AdmissionWorkload.QUEUES];
    IntStream.range(0, started.length)
        .filter(i -> started[i] != 0)
        .boxed()
        .sorted((a, b) -> Long.compare(started[a], started[b]))
        .limit((long) Math.ceil(admitted() * share))
        .forEach(i -> counts[jobs.get(i).queue()]++);
    return counts;
  }

  /**
   * The share of jobs admitted before the job created just before them in their queue: how far
   * admission departs from first-in first-out within a queue.
   */
  double outOfOrder(List<AdmissionWorkload.JobShape> jobs) {
    long[] previous = new long[AdmissionWorkload.QUEUES];
    int pairs = 0;
    int inverted = 0;
    for (int i = 0; i < started.length; i++) {
      if (started[i] == 0) {
        continue;
      }
      int queue = jobs.get(i).queue();
      if (previous[queue] != 0) {
        pairs++;
        inverted += started[i] < previous[queue] ? 1 : 0;
      }
      previous[queue] = started[i];
    }
    return pairs == 0 ? 0 : (double) inverted / pairs;
  }

  /** API writes to a resource per admitted job. */
  double writesPerAdmission(String resource) {
    return writes.getOrDefault(resource, 0.0) / admitted();
  }

  /** Mean of the sorted latencies, in seconds. */
  static double meanSeconds(LoadResult latencies) {
    return Arrays.stream(latencies.latencyNanos()).average().orElse(Double.NaN) / 1e9;
  }

  @Override
  public String toString() {
    LoadResult all = timeToAdmission(null, -1);
    return String.format(Locale.ROOT,
        "%s, round %d: %d admitted (%d held) in %.1f s, all pods after %.1f s; time to admission"
            + " mean %.2f s, p99 %.2f s; created at %.1f/s (%d failed); load %.1f -> %.1f",
        system, round, admitted(), held, wallSeconds(), allPodsSeconds(), meanSeconds(all),
        all.percentileMillis(0.99) / 1000, creation.rate(), creation.failures(), loadStart, loadEnd);
  }
}
