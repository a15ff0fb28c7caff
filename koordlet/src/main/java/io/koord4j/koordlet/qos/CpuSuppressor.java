package io.koord4j.koordlet.qos;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.colocation.NodeCapacity;
import io.koord4j.colocation.QosClass;
import io.koord4j.koordlet.cgroup.CgroupFiles;
import io.koord4j.koordlet.cgroup.CgroupFormats;
import io.koord4j.koordlet.cgroup.KubeQos;
import io.koord4j.koordlet.metrics.Usage;
import io.koord4j.koordlet.metrics.UsageCollector;
import io.koord4j.koordlet.states.NodeView;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds the BestEffort cgroup to the CPU that latency-sensitive pods leave, by its CFS quota
 * ({@code cpu.cfs_quota_us} on v1, {@code cpu.max} on v2). Suppression always works by quota here:
 * a NodeSLO asking for Koordinator's {@code cpuset} policy gets the same CPU share by quota.
 */
public final class CpuSuppressor {
  private static final Logger LOG = LoggerFactory.getLogger(CpuSuppressor.class);

  private final NodeView view;
  private final UsageCollector collector;
  private final CgroupFiles cgroups;
  private final AtomicLong writtenQuotaUs = new AtomicLong(CgroupFormats.UNLIMITED_QUOTA);
  private boolean suppressing;

  public CpuSuppressor(NodeView view, UsageCollector collector, CgroupFiles cgroups) {
    this.view = view;
    this.collector = collector;
    this.cgroups = cgroups;
  }

  /** The BE quota koordlet last wrote, in µs per 100 ms; -1 when it lifted it. */
  public long writtenQuotaUs() {
    return writtenQuotaUs.get();
  }

  /** One round: computes the BE share and writes the quota when it changed enough. */
  public void run() {
    Thresholds thresholds = Thresholds.of(view.nodeSlo());
    String beDir = cgroups.layout().qosDir(KubeQos.BEST_EFFORT);
    if (!thresholds.enabled()) {
      if (suppressing) {
        write(beDir, CgroupFormats.UNLIMITED_QUOTA);
        suppressing = false;
        LOG.info("BE CPU suppression off: quota of {} lifted", beDir);
      }
      return;
    }
    Optional<Node> node = view.node();
    Optional<Usage> nodeUsage = collector.nodeLatest();
    if (node.isEmpty() || nodeUsage.isEmpty() || !cgroups.exists(beDir)) {
      return;
    }
    NodeCapacity capacity = NodeCapacity.of(node.get());
    CpuSuppression.Inputs inputs = inputs(capacity, nodeUsage.get(), thresholds);
    long suppress = CpuSuppression.suppressMilli(inputs);
    long target = CpuSuppression.quotaUs(suppress);
    OptionalLong next = CpuSuppression.nextQuotaUs(target, cgroups.cpuQuotaUs(beDir), capacity.cpuMilli());
    if (next.isPresent()) {
      write(beDir, next.getAsLong());
      suppressing = true;
      LOG.debug(
          "BE CPU {}m = {}m x {}% - non-BE {}m - max(system, reserved {}m); quota {} us",
          suppress, capacity.cpuMilli(), thresholds.cpuSuppressPercent(), inputs.nonBePodsUsedMilli(),
          inputs.reservedMilli(), next.getAsLong());
    }
  }

  private CpuSuppression.Inputs inputs(NodeCapacity capacity, Usage nodeUsage, Thresholds thresholds) {
    Map<String, Usage> pods = collector.podsLatest();
    double all = 0;
    double nonBe = 0;
    for (Pod pod : view.pods()) {
      Usage usage = pods.get(pod.getMetadata().getUid());
      if (usage != null) {
        all += usage.cpuCores();
        if (QosClass.of(pod) != QosClass.BE) {
          nonBe += usage.cpuCores();
        }
      }
    }
    return new CpuSuppression.Inputs(
        capacity.cpuMilli(),
        Math.round(nodeUsage.cpuCores() * 1000),
        Math.round(all * 1000),
        Math.round(nonBe * 1000),
        capacity.reservedCpuMilli(),
        thresholds.cpuSuppressPercent(),
        thresholds.cpuSuppressMinPercent());
  }

  private void write(String beDir, long quotaUs) {
    cgroups.writeCpuQuotaUs(beDir, quotaUs);
    writtenQuotaUs.set(quotaUs);
  }
}
