package io.koord4j.scheduler.plugins;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.quota.ResourceVector;
import io.koord4j.scheduler.framework.BasePlugin;
import io.koord4j.scheduler.framework.ClusterEvent;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.FilterPlugin;
import io.koord4j.scheduler.framework.NodeInfo;
import io.koord4j.scheduler.framework.PreFilterPlugin;
import io.koord4j.scheduler.framework.ScorePlugin;
import io.koord4j.scheduler.framework.Status;
import io.koord4j.scheduler.plugins.deviceshare.DeviceShare;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

/**
 * Whether the node has room for the pod's request (CPU, memory, extended resources) and one more
 * pod, leaving to DeviceShare the GPU resources it counts by device ({@link DeviceShare#handles})
 * and keeping batch pods out of the room third parties may still fill ({@link
 * NodeInfo#thirdPartyRoom}: a node's thirdPartyAllocations are read as well as its allocatable);
 * scores nodes by how much CPU and memory stays free (least allocated first), which spreads
 * load. Nodes whose GPUs DeviceShare scores by fragmentation ({@link
 * DeviceShare#scoresByFragmentation}) score alike: spreading pods over them would strand GPUs.
 */
public final class NodeResourcesFit extends BasePlugin implements PreFilterPlugin, FilterPlugin, ScorePlugin {

  public static final String NAME = "NodeResourcesFit";
  private static final CycleState.Key<ResourceVector> REQUEST = new CycleState.Key<>(NAME);
  /** The requested resources as a list, made once per pod rather than once per node. */
  private static final CycleState.Key<List<Map.Entry<String, Long>>> REQUESTED =
      new CycleState.Key<>(NAME + "/entries");
  private static final List<String> SCORED =
      List.of(ResourceQuantities.CPU, ResourceQuantities.MEMORY);

  public NodeResourcesFit() {
    super(NAME, EnumSet.of(ClusterEvent.NODE_ADDED, ClusterEvent.NODE_UPDATED, ClusterEvent.ASSIGNED_POD_DELETED));
  }

  @Override
  public Status preFilter(CycleState state, Pod pod) {
    ResourceVector request = ResourceQuantities.requestOf(pod);
    state.put(REQUEST, request);
    state.put(REQUESTED, List.copyOf(request.asMap().entrySet()));
    return Status.SUCCESS;
  }

  @Override
  public Status filter(CycleState state, Pod pod, NodeInfo node) {
    List<Map.Entry<String, Long>> requested = state.get(REQUESTED);
    if (fits(requested, node)) {
      return Status.SUCCESS;
    }
    List<String> reasons = new ArrayList<>();
    if (!roomForOneMorePod(node)) {
      reasons.add("Too many pods");
    }
    for (var entry : requested) {
      if (!fits(entry, node)) {
        reasons.add("Insufficient " + entry.getKey());
      }
    }
    return Status.unschedulable(reasons.toArray(String[]::new));
  }

  /** Checked first without building reasons: most nodes fit, and this runs for each of them. */
  private static boolean fits(List<Map.Entry<String, Long>> requested, NodeInfo node) {
    if (!roomForOneMorePod(node)) {
      return false;
    }
    for (var entry : requested) {
      if (!fits(entry, node)) {
        return false;
      }
    }
    return true;
  }

  private static boolean roomForOneMorePod(NodeInfo node) {
    return node.podCount() + 1 <= node.allocatable().get(ResourceQuantities.PODS);
  }

  private static boolean fits(Map.Entry<String, Long> request, NodeInfo node) {
    return request.getValue() <= 0
        || DeviceShare.handles(request.getKey(), node)
        || request.getValue() <= node.free(request.getKey());
  }

  @Override
  public long score(CycleState state, Pod pod, NodeInfo node) {
    ResourceVector request = state.get(REQUEST);
    if (DeviceShare.scoresByFragmentation(node)) {
      return MAX_SCORE;
    }
    long sum = 0;
    for (String resource : SCORED) {
      long allocatable = node.allocatable().get(resource);
      long free = allocatable - node.requested().get(resource) - request.get(resource);
      sum += allocatable <= 0 ? 0 : Math.max(0, free) * MAX_SCORE / allocatable;
    }
    return sum / SCORED.size();
  }
}
