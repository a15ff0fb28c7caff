package io.koord4j.koordlet.metrics;

import io.koord4j.koordlet.cgroup.CgroupFiles;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples the node from /proc and every pod from its cgroup, keeping a bounded series of each.
 * One thread calls {@link #collect}; readers may call the queries from any thread.
 */
public final class UsageCollector {
  private static final Logger LOG = LoggerFactory.getLogger(UsageCollector.class);

  private final ProcFiles proc;
  private final CgroupFiles cgroups;
  private final Clock clock;
  private final LongSupplier monotonicNanos;
  private final int podCapacity;
  private final UsageSeries node;
  private final Map<String, UsageSeries> pods = new HashMap<>();
  private ProcFormats.CpuTimes lastNodeCpu;

  /**
   * @param nodeCapacity samples kept of the node: its longest aggregation window divided by the
   *     collect interval
   * @param podCapacity samples kept per pod: the NodeMetric aggregate duration divided by the
   *     collect interval
   */
  public UsageCollector(
      ProcFiles proc, CgroupFiles cgroups, Clock clock, LongSupplier monotonicNanos, int nodeCapacity, int podCapacity) {
    this.proc = proc;
    this.cgroups = cgroups;
    this.clock = clock;
    this.monotonicNanos = monotonicNanos;
    this.podCapacity = podCapacity;
    this.node = new UsageSeries(nodeCapacity, "");
  }

  /** Takes one sample of the node and of each pod; forgets pods no longer given. */
  public synchronized void collect(Collection<PodRef> current) {
    Instant now = clock.instant();
    collectNode(now);
    Set<String> uids = new HashSet<>();
    for (PodRef pod : current) {
      uids.add(pod.uid());
      collectPod(pod, now);
    }
    pods.entrySet().removeIf(entry -> {
      boolean gone = !uids.contains(entry.getKey());
      if (gone) {
        cgroups.forget(entry.getValue().dir);
      }
      return gone;
    });
  }

  private void collectNode(Instant now) {
    ProcFormats.CpuTimes cpu = proc.cpuTimes();
    ProcFormats.MemInfo memory = proc.memInfo();
    if (lastNodeCpu != null) {
      node.cpu.add(now, cpu.coresSince(lastNodeCpu));
      node.memory.add(now, memory.usedBytes());
    }
    lastNodeCpu = cpu;
  }

  private void collectPod(PodRef pod, Instant now) {
    UsageSeries known = pods.get(pod.uid());
    String dir = known != null ? known.dir : podDir(pod);
    if (dir == null) {
      return;
    }
    try {
      long cpuNanos = cgroups.cpuUsageNanos(dir);
      UsageSeries series = known != null ? known : new UsageSeries(podCapacity, dir);
      pods.putIfAbsent(pod.uid(), series);
      double cores = series.cpuRate.next(cpuNanos, monotonicNanos.getAsLong());
      if (!Double.isNaN(cores)) {
        series.cpu.add(now, cores);
        series.memory.add(now, cgroups.memoryWorkingSetBytes(dir));
      }
    } catch (UncheckedIOException e) {
      if (!(e.getCause() instanceof NoSuchFileException)) { // else not started yet, or already gone
        LOG.debug("pod {}/{}: cgroup {} unreadable: {}", pod.namespace(), pod.name(), dir, e.getMessage());
      }
    } catch (IllegalArgumentException e) {
      LOG.debug("pod {}/{}: cgroup {} unreadable: {}", pod.namespace(), pod.name(), dir, e.getMessage());
    }
  }

  /** The pod's cgroup, null when its UID cannot name one: that pod goes unmeasured, the others do not. */
  private String podDir(PodRef pod) {
    try {
      return cgroups.layout().podDir(pod.kubeQos(), pod.uid());
    } catch (IllegalArgumentException e) {
      LOG.warn("pod {}/{}: not measured: {}", pod.namespace(), pod.name(), e.getMessage());
      return null;
    }
  }

  public synchronized Optional<Usage> nodeLatest() {
    return node.latest();
  }

  public synchronized Optional<Usage> nodeAverage(Duration window) {
    return node.average(window, clock.instant());
  }

  public synchronized Optional<Aggregation> nodeCpu(Duration window) {
    return node.cpu.aggregate(window, clock.instant());
  }

  public synchronized Optional<Aggregation> nodeMemory(Duration window) {
    return node.memory.aggregate(window, clock.instant());
  }

  /** The last sample of every pod with one, by pod UID. */
  public synchronized Map<String, Usage> podsLatest() {
    Map<String, Usage> latest = new HashMap<>();
    pods.forEach((uid, series) -> series.latest().ifPresent(usage -> latest.put(uid, usage)));
    return latest;
  }

  /** The average over a window of every pod with samples in it, by pod UID. */
  public synchronized Map<String, Usage> podsAverage(Duration window) {
    Instant now = clock.instant();
    Map<String, Usage> averages = new HashMap<>();
    pods.forEach((uid, series) -> series.average(window, now).ifPresent(usage -> averages.put(uid, usage)));
    return averages;
  }
}
