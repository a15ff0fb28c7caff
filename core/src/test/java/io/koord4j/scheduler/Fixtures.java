package io.koord4j.scheduler;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.scheduler.framework.NodeInfo;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/** Pods and nodes for tests, with only what scheduling reads. */
public final class Fixtures {
  private Fixtures() {}

  public static Pod pod(String name, String cpu, String memory) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("default")
        .withUid(UUID.nameUUIDFromBytes(name.getBytes()).toString())
        .endMetadata()
        .withNewSpec()
        .withSchedulerName("koord-scheduler")
        .addNewContainer()
        .withName("main")
        .withNewResources()
        .withRequests(Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory)))
        .endResources()
        .endContainer()
        .endSpec()
        .build();
  }

  public static Pod withPriority(Pod pod, int priority) {
    return new PodBuilder(pod).editSpec().withPriority(priority).endSpec().build();
  }

  public static Pod withAnnotations(Pod pod, Map<String, String> annotations) {
    return new PodBuilder(pod).editMetadata().addToAnnotations(annotations).endMetadata().build();
  }

  public static Pod withLabels(Pod pod, Map<String, String> labels) {
    return new PodBuilder(pod).editMetadata().addToLabels(labels).endMetadata().build();
  }

  public static Pod boundTo(Pod pod, String nodeName) {
    return new PodBuilder(pod).editSpec().withNodeName(nodeName).endSpec().build();
  }

  public static Node node(String name, String cpu, String memory) {
    Map<String, Quantity> allocatable =
        new HashMap<>(
            Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory), "pods", new Quantity("110")));
    return new NodeBuilder()
        .withNewMetadata()
        .withName(name)
        .withLabels(new HashMap<>(Map.of("kubernetes.io/hostname", name)))
        .endMetadata()
        .withNewSpec()
        .endSpec()
        .withNewStatus()
        .withAllocatable(allocatable)
        .withCapacity(allocatable)
        .endStatus()
        .build();
  }

  public static NodeInfo nodeInfo(String name, String cpu, String memory) {
    return NodeInfo.of(node(name, cpu, memory));
  }
}
