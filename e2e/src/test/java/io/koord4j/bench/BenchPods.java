package io.koord4j.bench;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;

/** Benchmark pods: one container, served by the scheduler named like their namespace. */
final class BenchPods {
  private BenchPods() {}

  /** A pod that deletes at once, to be completed with placement and annotations. */
  static PodBuilder pod(
      String namespace, String name, Map<String, Quantity> requests, Map<String, Quantity> limits) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(namespace)
        .endMetadata()
        .withNewSpec()
        .withSchedulerName(namespace)
        .withTerminationGracePeriodSeconds(0L)
        .addNewContainer()
        .withName("main")
        .withImage("busybox")
        .withNewResources()
        .withRequests(requests)
        .withLimits(limits)
        .endResources()
        .endContainer()
        .endSpec();
  }
}
