package io.koord4j.scheduler.plugins;

import static io.koord4j.scheduler.Fixtures.pod;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.koord4j.scheduler.Fixtures;
import io.koord4j.scheduler.framework.NodeInfo;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Nodes in zones with pods placed on them, for the plugins that judge a node by the pods of its
 * topology domain. Zones are {@code topology.kubernetes.io/zone}; a node listed without a zone
 * lacks the label.
 */
public final class PodsInTopology {
  public static final String ZONE = "topology.kubernetes.io/zone";
  public static final String HOSTNAME = "kubernetes.io/hostname";

  private final List<NodeInfo> nodes = new ArrayList<>();

  /** A node named {@code name} in {@code zone} (null: no zone label) holding {@code pods}. */
  public PodsInTopology node(String name, String zone, Pod... pods) {
    return labelledNode(name, zone == null ? Map.of() : Map.of(ZONE, zone), pods);
  }

  public PodsInTopology labelledNode(String name, Map<String, String> labels, Pod... pods) {
    return add(new NodeBuilder(Fixtures.node(name, "8", "8Gi")).editMetadata().addToLabels(labels).endMetadata(), pods);
  }

  public PodsInTopology taintedNode(String name, String zone, Taint taint, Pod... pods) {
    return add(
        new NodeBuilder(Fixtures.node(name, "8", "8Gi"))
            .editMetadata().addToLabels(ZONE, zone).endMetadata()
            .editSpec().addToTaints(taint).endSpec(),
        pods);
  }

  private PodsInTopology add(NodeBuilder node, Pod... pods) {
    nodes.add(NodeInfo.of(node.build()).withPods(Arrays.asList(pods)));
    return this;
  }

  public List<NodeInfo> nodes() {
    return List.copyOf(nodes);
  }

  /** A pod in {@code namespace} with labels given as {@code key, value, key, value...}. */
  public static Pod labelled(String name, String namespace, String... labels) {
    Map<String, String> map = new HashMap<>();
    for (int i = 0; i < labels.length; i += 2) {
      map.put(labels[i], labels[i + 1]);
    }
    return new PodBuilder(pod(name, "1", "1Gi"))
        .editMetadata()
        .withNamespace(namespace)
        .withLabels(map)
        .endMetadata()
        .build();
  }

  public static LabelSelector selector(String key, String operator, String... values) {
    return new LabelSelector(List.of(new LabelSelectorRequirement(key, operator, List.of(values))), null);
  }

  public static LabelSelector matchLabels(String key, String value) {
    return new LabelSelector(null, Map.of(key, value));
  }
}
