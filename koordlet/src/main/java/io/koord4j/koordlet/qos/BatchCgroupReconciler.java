package io.koord4j.koordlet.qos;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.colocation.QosClass;
import io.koord4j.koordlet.cgroup.CgroupFiles;
import io.koord4j.koordlet.cgroup.KubeQos;
import io.koord4j.koordlet.states.NodeView;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the cgroup values of BE pods that request {@code kubernetes.io/batch-cpu} or {@code
 * batch-memory}: CPU shares, CFS quota and memory limit of the pod and of each started container.
 * Writes again only when the values or the set of containers change.
 */
public final class BatchCgroupReconciler {
  private static final Logger LOG = LoggerFactory.getLogger(BatchCgroupReconciler.class);

  private final NodeView view;
  private final CgroupFiles cgroups;
  /** What was last written per pod UID, with the container cgroups it covered. */
  private final Map<String, Applied> applied = new HashMap<>();

  private record Applied(BatchCgroupSettings pod, Set<String> containerDirs) {}

  public BatchCgroupReconciler(NodeView view, CgroupFiles cgroups) {
    this.view = view;
    this.cgroups = cgroups;
  }

  public void run() {
    List<Pod> batchPods =
        view.pods().stream()
            .filter(pod -> QosClass.of(pod) == QosClass.BE && BatchCgroupSettings.requestsBatch(pod))
            .toList();
    applied.keySet().retainAll(batchPods.stream().map(pod -> pod.getMetadata().getUid()).collect(Collectors.toSet()));
    for (Pod pod : batchPods) {
      try {
        reconcile(pod);
      } catch (UncheckedIOException | IllegalArgumentException e) {
        LOG.warn("pod {}/{}: cannot set batch cgroup values: {}",
            pod.getMetadata().getNamespace(), pod.getMetadata().getName(), e.getMessage());
      }
    }
  }

  private void reconcile(Pod pod) {
    String podDir = cgroups.layout().podDir(KubeQos.of(pod), pod.getMetadata().getUid());
    if (!cgroups.exists(podDir)) {
      return;
    }
    BatchCgroupSettings podSettings = BatchCgroupSettings.ofPod(pod);
    Map<String, String> containerDirs = containerDirs(pod, podDir);
    Applied wanted = new Applied(podSettings, Set.copyOf(containerDirs.values()));
    if (wanted.equals(applied.get(pod.getMetadata().getUid()))) {
      return;
    }
    // A limit shrinks safely from the inside out and grows from the outside in; write the pod
    // first when it grows and last when it shrinks, containers in between.
    write(podDir, podSettings);
    for (Container container : pod.getSpec().getContainers()) {
      String dir = containerDirs.get(container.getName());
      if (dir != null && cgroups.exists(dir)) {
        write(dir, BatchCgroupSettings.ofContainer(container));
      }
    }
    write(podDir, podSettings);
    applied.put(pod.getMetadata().getUid(), wanted);
    LOG.info("pod {}/{}: batch cgroup values {}", pod.getMetadata().getNamespace(), pod.getMetadata().getName(), podSettings);
  }

  private void write(String dir, BatchCgroupSettings settings) {
    cgroups.writeCpuShares(dir, settings.cpuShares());
    cgroups.writeCpuQuotaUs(dir, settings.cfsQuotaUs());
    cgroups.writeMemoryLimit(dir, settings.memoryLimitBytes());
  }

  /**
   * Container name to cgroup, for the containers that have started. Built before the first write,
   * so that one containerID that cannot name a cgroup leaves the whole pod untouched.
   */
  private Map<String, String> containerDirs(Pod pod, String podDir) {
    Map<String, String> dirs = new HashMap<>();
    if (pod.getStatus() != null && pod.getStatus().getContainerStatuses() != null) {
      for (ContainerStatus status : pod.getStatus().getContainerStatuses()) {
        if (status.getContainerID() != null && !status.getContainerID().isEmpty()) {
          dirs.put(status.getName(), containerDir(podDir, status));
        }
      }
    }
    return dirs;
  }

  private String containerDir(String podDir, ContainerStatus status) {
    try {
      return cgroups.layout().containerDir(podDir, status.getContainerID());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("status.containerStatuses[" + status.getName() + "]." + e.getMessage(), e);
    }
  }
}
