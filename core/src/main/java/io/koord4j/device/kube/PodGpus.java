package io.koord4j.device.kube;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.api.WellKnown;
import io.koord4j.device.DeviceAllocatedCodec;
import io.koord4j.device.GpuAllocation;
import io.koord4j.device.GpuAllocator;
import io.koord4j.device.GpuRequest;
import io.koord4j.device.InvalidDeviceSpecException;
import io.koord4j.device.NodeGpuInventory;
import io.koord4j.device.NodeGpuUsage;
import io.koord4j.jobs.PodRequests;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** A pod's GPUs, read from the pod: what it asks for, and what it holds once placed. */
public final class PodGpus {
  private PodGpus() {}

  /**
   * The pod's GPU request, empty when it asks for none.
   *
   * @throws InvalidDeviceSpecException naming the resource or annotation and the rule broken
   */
  public static Optional<GpuRequest> request(Pod pod) {
    Map<String, String> asText = new LinkedHashMap<>();
    PodRequests.of(pod.getSpec(), "spec")
        .forEach((resource, amount) -> asText.put(resource, amount.toPlainString()));
    return GpuRequest.fromPod(keyOf(pod), asText, annotations(pod));
  }

  /**
   * The GPUs a placed pod holds on {@code gpus}' node: those its {@code device-allocated}
   * annotation names, else (placed by a scheduler that does not write it, or written wrongly) as
   * many as it asks for, wherever the allocator puts them next to {@code usage}; null when it
   * holds none.
   */
  public static GpuAllocation held(Pod pod, NodeGpuInventory gpus, NodeGpuUsage usage) {
    String allocated = annotations(pod).get(WellKnown.DEVICE_ALLOCATED);
    if (allocated != null && !allocated.isBlank()) {
      try {
        return DeviceAllocatedCodec.parse(keyOf(pod), allocated, gpus);
      } catch (InvalidDeviceSpecException e) {
        // Counted by its request below, so that its GPUs are not handed out twice.
      }
    }
    Optional<GpuRequest> request;
    try {
      request = request(pod);
    } catch (IllegalArgumentException e) {
      return null;
    }
    return request.flatMap(r -> GpuAllocator.allocate(gpus, usage, r).allocation()).orElse(null);
  }

  public static String keyOf(Pod pod) {
    return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
  }

  private static Map<String, String> annotations(Pod pod) {
    Map<String, String> annotations = pod.getMetadata().getAnnotations();
    return annotations == null ? Map.of() : annotations;
  }
}
