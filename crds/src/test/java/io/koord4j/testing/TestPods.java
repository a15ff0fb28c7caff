package io.koord4j.testing;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.HashMap;
import java.util.Map;

/** Pods with one container and given resources, for tests of what a pod's resources imply. */
public final class TestPods {
  private TestPods() {}

  /** A pod {@code name} in namespace {@code default} with one container {@code main}. */
  public static Pod pod(String name, Integer priority, Map<String, String> requests, Map<String, String> limits) {
    return new PodBuilder()
        .withNewMetadata().withName(name).withNamespace("default").endMetadata()
        .withNewSpec()
        .withPriority(priority)
        .addNewContainer()
        .withName("main")
        .withNewResources()
        .withRequests(quantities(requests))
        .withLimits(quantities(limits))
        .endResources()
        .endContainer()
        .endSpec()
        .build();
  }

  public static Map<String, Quantity> quantities(Map<String, String> values) {
    Map<String, Quantity> result = new HashMap<>();
    values.forEach((name, value) -> result.put(name, new Quantity(value)));
    return result;
  }
}
