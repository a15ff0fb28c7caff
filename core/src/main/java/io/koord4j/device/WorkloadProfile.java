package io.koord4j.device;

import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The task classes the scheduler has been asked to place and how often: the target workload of
 * the fragmentation score. Each pod counts once, however often it is tried again while it waits
 * for room (the last {@value #REMEMBERED_PODS} pods are remembered by uid). Thread-safe. The
 * snapshot the score reads changes rarely (after 1, 2, 4, ... 1,024 pods, then every 1,024), so
 * scores stay comparable between nodes and over time.
 */
public final class WorkloadProfile {
  /** The most frequent classes cover nearly all pods and bound the cost of one score. */
  static final int MAX_CLASSES = 64;

  private static final long REFRESH_EVERY = 1024;
  static final int REMEMBERED_PODS = 65_536;

  private record Key(long milliCpu, long memoryBytes, int gpuCount, int gpuPercent) {}

  private final Map<Key, Long> counts = new HashMap<>();
  /** The uids of the pods counted last, oldest first. */
  private final Map<String, Boolean> counted =
      new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
          return size() > REMEMBERED_PODS;
        }
      };
  private long observed;
  private volatile List<TaskClass> snapshot = List.of();
  private volatile long version;

  /**
   * Records one pod's request, unless the pod was counted already; {@code podUid} null counts
   * every call, {@code gpus} null for a pod without GPUs.
   */
  public synchronized void observe(String podUid, long milliCpu, long memoryBytes, GpuRequest gpus) {
    if (podUid != null && counted.put(podUid, Boolean.TRUE) != null) {
      return;
    }
    Key key =
        gpus == null
            ? new Key(milliCpu, memoryBytes, 0, 0)
            : new Key(milliCpu, memoryBytes, gpus.count(), gpus.isWholeGpus() ? 100 : gpus.corePercent());
    counts.merge(key, 1L, Long::sum);
    observed++;
    if (observed % REFRESH_EVERY == 0 || (observed < REFRESH_EVERY && Long.bitCount(observed) == 1)) {
      snapshot = classes();
      version++;
    }
  }

  /** The workload as of the last refresh; empty before the first pod. */
  public List<TaskClass> snapshot() {
    return snapshot;
  }

  /** Changes whenever {@link #snapshot} does. */
  public long version() {
    return version;
  }

  private List<TaskClass> classes() {
    List<Map.Entry<Key, Long>> top =
        counts.entrySet().stream()
            .sorted(Map.Entry.<Key, Long>comparingByValue(Comparator.reverseOrder()))
            .limit(MAX_CLASSES)
            .toList();
    double total = top.stream().mapToLong(Map.Entry::getValue).sum();
    return top.stream()
        .map(e -> new TaskClass(
            e.getKey().milliCpu(), e.getKey().memoryBytes(), e.getKey().gpuCount(), e.getKey().gpuPercent(),
            e.getValue() / total))
        .toList();
  }
}
