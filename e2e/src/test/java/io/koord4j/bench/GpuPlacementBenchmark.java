package io.koord4j.bench;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.api.WellKnown;
import io.koord4j.api.device.Device;
import io.koord4j.device.NodeGpuInventory;
import io.koord4j.scheduler.GpuFixtures;
import io.koord4j.testing.LocalCluster;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;

/**
 * Benchmark B5: how well kube-scheduler (counting {@code nvidia.com/gpu}) and koord-scheduler
 * (DeviceShare with the H100 NVLink partition table) place a seeded trace of 1/2/4/8-GPU pods and
 * gangs on the same 8-GPU KWOK nodes.
 *
 * <p>Each scheduler gets a block of its own on the same nodes (with their Device objects), as a
 * separate process with a scheduler name unique to the run (see {@link SchedulerProcess}). The
 * trace is submitted one item at a time: an item's pods are created together and the next item
 * waits until all are bound, or the item has failed (a pod unschedulable for {@value
 * #UNSCHEDULABLE_SECONDS} s, or not all bound within {@value #ITEM_TIMEOUT_SECONDS} s) and is
 * deleted. The block ends when the first item with an 8-GPU pod fails, or the trace ends.
 *
 * <p>Figures: the share of bound multi-GPU pods whose GPUs form one NVLink partition of the
 * table (pairs {0,1},{2,3},{4,5},{6,7}; halves {0-3},{4-7}; all eight); the GPUs allocated when
 * the first 8-GPU pod fails; the nodes with no GPU in use once the trace's first half of the
 * cluster's GPUs has been requested. kube-scheduler only counts GPUs; which GPUs a pod gets is
 * the device plugin's choice on the node, so its minors are computed, in bind order per node, by
 * two rules: <em>lowest free minors</em> (kubelet's order when the device plugin states no
 * preference) and <em>best</em> (the same allocator koord-scheduler uses, on kube-scheduler's node
 * choice, as a topology-aware device plugin would at best). koord-scheduler's minors are read
 * from the pods' {@code scheduling.koordinator.sh/device-allocated} annotation.
 *
 * <p>System properties: {@code bench.b5.nodes} (64), {@code bench.b5.seed} (7). Writes {@code
 * target/bench/B5.md}; deletes its nodes, Devices and namespaces.
 */
public final class GpuPlacementBenchmark {

  static final int GPUS_PER_NODE = 8;
  static final int UNSCHEDULABLE_SECONDS = 5;
  static final int ITEM_TIMEOUT_SECONDS = 60;

  private static final Map<String, String> H100_LABELS =
      Map.of(WellKnown.GPU_MODEL, "H100", WellKnown.GPU_VENDOR, "nvidia");

  private GpuPlacementBenchmark() {}

  public static void main(String[] args) throws Exception {
    int nodes = Integer.getInteger("bench.b5.nodes", 64);
    long seed = Long.getLong("bench.b5.seed", 7);
    String run = "b5-" + UUID.randomUUID().toString().substring(0, 6);
    List<GpuTrace.Item> trace = GpuTrace.generate(seed, 2 * nodes * GPUS_PER_NODE);
    try (KubernetesClient client = BenchClients.admin(16);
        BenchNodes pool = new BenchNodes(client, run)) {
      LocalCluster.ensureCrds(client, SchedulerProcess.KOORD_SCHEDULER_CRDS);
      try {
        log("creating " + nodes + " KWOK nodes of 8 H100 GPUs with their Devices in pool " + run);
        List<String> names =
            pool.create(
                nodes,
                Map.of("cpu", "96", "memory", "1Ti", "pods", "110", WellKnown.NVIDIA_GPU, "8"),
                H100_LABELS,
                16);
        Map<String, NodeGpuInventory> inventories = new HashMap<>();
        for (String name : names) {
          Device device = GpuFixtures.h100Device(name);
          device.getMetadata().setLabels(Map.of(BenchNodes.POOL_KEY, run));
          device = client.resource(device).create();
          inventories.put(name, NodeGpuInventory.fromDevice(device, H100_LABELS));
        }
        GpuTraceRun blocks = new GpuTraceRun(client, pool, trace, inventories);
        GpuTraceRun.Result kube =
            blocks.run("kube-scheduler", run + "-kube", SchedulerProcess::kubeScheduler);
        LocalCluster.ensureCrds(client, SchedulerProcess.KOORD_SCHEDULER_CRDS);
        GpuTraceRun.Result koord =
            blocks.run(
                "koord-scheduler",
                run + "-koord",
                name -> SchedulerProcess.koordScheduler(client, name));
        BenchReport.write("B5", markdown(nodes, seed, trace, kube, koord));
      } finally {
        client.resources(Device.class).withLabel(BenchNodes.POOL_KEY, run).delete();
      }
    }
  }

  private static String markdown(
      int nodes, long seed, List<GpuTrace.Item> trace, GpuTraceRun.Result kube, GpuTraceRun.Result koord) {
    List<String> lines = new ArrayList<>(List.of(
        "# B5: GPU placement quality, kube-scheduler vs koord-scheduler",
        "",
        String.format(Locale.ROOT,
            "%d KWOK nodes of 8 H100 GPUs (the H100 NVLink partition table in each Device), a trace of %d items"
                + " (seed %d: single pods of 1/2/4/8 GPUs and gangs of 2-4 pods of 2/4/8 GPUs),"
                + " submitted one item at a time to each scheduler in its own block on the same nodes.",
            nodes, trace.size(), seed),
        "",
        "| | kube-scheduler, lowest free minors | kube-scheduler, best minors | koord-scheduler |",
        "|---|---:|---:|---:|",
        String.format(Locale.ROOT, "| multi-GPU pods inside one NVLink partition | %s | %s | %s |",
            share(kube.insidePartition(GpuTraceRun.Minors.LOWEST_FREE)),
            share(kube.insidePartition(GpuTraceRun.Minors.BEST)),
            share(koord.insidePartition(GpuTraceRun.Minors.ANNOTATED))),
        String.format(Locale.ROOT, "| GPUs allocated when the first 8-GPU pod fails | %s | %s | %s |",
            gpus(kube.gpusAtFirst8GpuFailure()), gpus(kube.gpusAtFirst8GpuFailure()),
            gpus(koord.gpusAtFirst8GpuFailure())),
        String.format(Locale.ROOT, "| nodes fully free after half the GPUs were requested | %d | %d | %d |",
            kube.freeNodesAtHalf(), kube.freeNodesAtHalf(), koord.freeNodesAtHalf()),
        String.format(Locale.ROOT, "| items placed / failed before the end | %d / %d | | %d / %d |",
            kube.placedItems(), kube.failedItems(), koord.placedItems(), koord.failedItems()),
        "",
        "kube-scheduler picks only the node; the two kube-scheduler columns differ only in which GPUs"
            + " the node's device plugin would hand out (see the benchmark's description)."));
    if (koord.annotatedPods() == 0) {
      lines.add("");
      lines.add("koord-scheduler wrote no `scheduling.koordinator.sh/device-allocated` annotation:"
          + " this build has no DeviceShare plugin, so its partition share cannot be measured.");
    }
    lines.add("");
    lines.add("Machine: " + Runtime.getRuntime().availableProcessors() + " CPUs; run at " + Instant.now() + ".");
    return String.join("\n", lines) + "\n";
  }

  private static String gpus(OptionalInt gpus) {
    return gpus.isPresent() ? Integer.toString(gpus.getAsInt()) : "none failed";
  }

  private static String share(Optional<double[]> share) {
    return share
        .map(s -> String.format(Locale.ROOT, "%.0f %% (%d of %d)", 100 * s[0] / s[1], (long) s[0], (long) s[1]))
        .orElse("n/a");
  }

  static void log(String message) {
    System.out.println("[B5 " + Instant.now() + "] " + message);
  }
}
