package io.koord4j.jobs;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.koord4j.quantity.ResourceNames;
import io.koord4j.quantity.ResourceQuantities;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The effective request of one pod, computed the way the scheduler and resource quota do, so that
 * a queued job is charged exactly what its pods will reserve on nodes.
 *
 * <p>For each resource:
 *
 * <ul>
 *   <li>While initializing, init containers run one at a time next to the sidecars (init
 *       containers with {@code restartPolicy: Always}) already started. Each init container
 *       needs its own request plus those of the sidecars listed before it; a sidecar needs its
 *       own request plus those before it. The init peak is the largest of these.
 *   <li>Once running, the pod needs the sum of its regular containers plus all sidecars.
 *   <li>The pod's request is the larger of the two, plus {@code overhead} if set.
 * </ul>
 *
 * A container's request for a resource defaults to its limit when only the limit is set, as the
 * API server defaults it.
 */
public final class PodRequests {
  private PodRequests() {}

  private static final String SIDECAR_RESTART_POLICY = "Always";

  /**
   * The effective request of a pod with this spec, in base units, under the current resource
   * names (a deprecated Koordinator name such as {@code kubernetes.io/gpu} is read as its
   * successor, see {@link ResourceNames}).
   *
   * @param specPath the path of {@code spec} in its object, e.g. {@code spec.template.spec}, used
   *     to name the field of an invalid quantity
   * @throws IllegalArgumentException naming the field of a malformed or negative quantity
   */
  public static Map<String, BigDecimal> of(PodSpec spec, String specPath) {
    Map<String, BigDecimal> running = Map.of();
    List<Container> containers = spec.getContainers();
    for (int i = 0; i < containers.size(); i++) {
      running =
          ResourceQuantities.sum(
              running, ofContainer(containers.get(i), specPath + ".containers[" + i + "]"));
    }

    Map<String, BigDecimal> startedSidecars = Map.of();
    Map<String, BigDecimal> initPeak = Map.of();
    List<Container> initContainers = spec.getInitContainers();
    for (int i = 0; i < initContainers.size(); i++) {
      Container init = initContainers.get(i);
      Map<String, BigDecimal> request =
          ofContainer(init, specPath + ".initContainers[" + i + "]");
      if (SIDECAR_RESTART_POLICY.equals(init.getRestartPolicy())) {
        startedSidecars = ResourceQuantities.sum(startedSidecars, request);
        initPeak = ResourceQuantities.max(initPeak, startedSidecars);
      } else {
        initPeak = ResourceQuantities.max(initPeak, ResourceQuantities.sum(request, startedSidecars));
      }
    }
    running = ResourceQuantities.sum(running, startedSidecars);

    Map<String, BigDecimal> pod = ResourceQuantities.max(running, initPeak);
    return ResourceNames.current(
        ResourceQuantities.sum(pod, parseAll(spec.getOverhead(), specPath + ".overhead")));
  }

  /** A container's requests, each missing request taken from the limit of the same resource. */
  private static Map<String, BigDecimal> ofContainer(Container container, String containerPath) {
    ResourceRequirements resources = container.getResources();
    if (resources == null) {
      return Map.of();
    }
    String resourcesPath = containerPath + ".resources";
    Map<String, BigDecimal> requests = new TreeMap<>(
        parseAll(resources.getLimits(), resourcesPath + ".limits"));
    requests.putAll(parseAll(resources.getRequests(), resourcesPath + ".requests"));
    return requests;
  }

  private static Map<String, BigDecimal> parseAll(Map<String, Quantity> quantities, String path) {
    Map<String, BigDecimal> amounts = new TreeMap<>();
    if (quantities != null) {
      quantities.forEach(
          (resource, quantity) ->
              amounts.put(resource, ResourceQuantities.parse(quantity, fieldOf(path, resource))));
    }
    return amounts;
  }

  /** {@code requests.cpu}, but {@code requests[nvidia.com/gpu]} for names with dots or slashes. */
  static String fieldOf(String mapPath, String key) {
    return key.matches("[A-Za-z0-9_-]+") ? mapPath + "." + key : mapPath + "[" + key + "]";
  }
}
