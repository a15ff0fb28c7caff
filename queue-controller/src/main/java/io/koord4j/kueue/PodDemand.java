package io.koord4j.kueue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.koord4j.device.GpuRequest;
import io.koord4j.jobs.PodRequests;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.quota.ResourceVector;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one pod takes from a node: its effective CPU and memory requests and its GPUs.
 *
 * @param gpu null when the pod asks for no GPU
 * @param requests every resource it requests, as charged to its quota
 */
record PodDemand(long milliCpu, long memoryBytes, GpuRequest gpu, ResourceVector requests) {

  /**
   * The demand of the pods of a pod template.
   *
   * @param podKey names the pod set in errors
   * @param specPath where {@code spec} lies in its object, for errors
   * @throws IllegalArgumentException naming the field when a request or GPU annotation is invalid
   */
  static PodDemand of(String podKey, PodSpec spec, Map<String, String> annotations, String specPath) {
    Map<String, BigDecimal> requests = PodRequests.of(spec, specPath);
    return new PodDemand(milliCpu(requests), memoryBytes(requests), gpu(podKey, requests, annotations),
        ResourceQuantities.fromAmounts(requests));
  }

  /**
   * The demand of a bound pod. A pod whose GPU annotations cannot be read still takes its CPU and
   * memory.
   *
   * @throws IllegalArgumentException naming the field of a request beyond the codec's bounds,
   *     which the API server does not hold quantities to
   */
  static PodDemand ofBound(Pod pod) {
    Map<String, BigDecimal> requests = PodRequests.of(pod.getSpec(), "spec");
    GpuRequest gpu;
    try {
      String key = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
      gpu = gpu(key, requests, pod.getMetadata().getAnnotations());
    } catch (IllegalArgumentException e) {
      gpu = null;
    }
    return new PodDemand(milliCpu(requests), memoryBytes(requests), gpu, ResourceQuantities.fromAmounts(requests));
  }

  private static GpuRequest gpu(String podKey, Map<String, BigDecimal> requests, Map<String, String> annotations) {
    Map<String, String> asText = new LinkedHashMap<>();
    requests.forEach((resource, amount) -> asText.put(resource, amount.toPlainString()));
    return GpuRequest.fromPod(podKey, asText, annotations == null ? Map.of() : annotations).orElse(null);
  }

  private static long milliCpu(Map<String, BigDecimal> requests) {
    return baseUnits(ResourceQuantities.CPU, requests);
  }

  private static long memoryBytes(Map<String, BigDecimal> requests) {
    return baseUnits(ResourceQuantities.MEMORY, requests);
  }

  private static long baseUnits(String resource, Map<String, BigDecimal> requests) {
    BigDecimal amount = requests.get(resource);
    return amount == null ? 0 : ResourceQuantities.baseUnits(resource, amount);
  }
}
