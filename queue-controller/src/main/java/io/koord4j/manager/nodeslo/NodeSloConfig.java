package io.koord4j.manager.nodeslo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.koord4j.api.slo.NodeSLOSpec;
import io.koord4j.api.slo.ResourceThresholdStrategy;
import io.koord4j.manager.noderesource.SloConfigMap;
import io.koord4j.manager.support.LabelSelectors;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The NodeSLO strategies of Koordinator's {@code slo-controller-config} ConfigMap; no I/O. Each key
 * holds a {@code clusterStrategy} and {@code nodeStrategies}, each of these a {@code name}, a
 * {@code nodeSelector} and the strategy's fields inline. A node gets the first node strategy whose
 * selector matches it, merged over the cluster strategy, else the cluster strategy; the cluster
 * strategy is merged over the defaults. Objects merge field by field at every depth, as Koordinator
 * merges its configuration.
 */
public final class NodeSloConfig {
  public static final String RESOURCE_THRESHOLD_KEY = "resource-threshold-config";
  public static final String RESOURCE_QOS_KEY = "resource-qos-config";
  public static final String CPU_BURST_KEY = "cpu-burst-config";
  public static final String SYSTEM_KEY = "system-config";

  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  /** One key of the ConfigMap and the NodeSLO spec field it fills. */
  private record Key(String name, ObjectNode defaults, BiConsumer<NodeSLOSpec, ObjectNode> setter) {}

  private record NodeStrategy(LabelSelector selector, ObjectNode strategy) {}

  private record Strategies(ObjectNode cluster, List<NodeStrategy> nodes) {
    ObjectNode forNode(Map<String, String> labels) {
      return nodes.stream()
          .filter(node -> LabelSelectors.matches(node.selector(), labels))
          .findFirst()
          .map(NodeStrategy::strategy)
          .orElse(cluster);
    }
  }

  /**
   * Koordinator's default for the BE thresholds: off, CPU suppressed at 65 % by cpuset, memory
   * evicted at 70 %, CPU eviction by real limit. The other strategies have no defaults here: koordlet
   * fills in its own for what it leaves unset.
   */
  private static final List<Key> KEYS = List.of(
      new Key(RESOURCE_THRESHOLD_KEY, object("""
          {"enable": false, "cpuSuppressThresholdPercent": 65, "cpuSuppressPolicy": "cpuset",
           "memoryEvictThresholdPercent": 70, "cpuEvictPolicy": "evictByRealLimit"}"""),
          (spec, strategy) -> spec.setResourceUsedThresholdWithBE(thresholds(strategy))),
      new Key(RESOURCE_QOS_KEY, JSON.createObjectNode(), (spec, strategy) -> spec.setResourceQOSStrategy(map(strategy))),
      new Key(CPU_BURST_KEY, JSON.createObjectNode(), (spec, strategy) -> spec.setCpuBurstStrategy(map(strategy))),
      new Key(SYSTEM_KEY, JSON.createObjectNode(), (spec, strategy) -> spec.setSystemStrategy(map(strategy))));

  public static final NodeSloConfig DEFAULT = parse(Map.of());

  private final Map<Key, Strategies> strategies;

  private NodeSloConfig(Map<Key, Strategies> strategies) {
    this.strategies = strategies;
  }

  /**
   * Parses the ConfigMap's data; keys it does not name are left to their defaults.
   *
   * @throws IllegalArgumentException naming the key and field that is wrong
   */
  public static NodeSloConfig parse(Map<String, String> data) {
    Map<Key, Strategies> strategies = new LinkedHashMap<>();
    for (Key key : KEYS) {
      strategies.put(key, strategies(key, data.get(key.name())));
    }
    return new NodeSloConfig(strategies);
  }

  /** The NodeSLO spec of a node with these labels. */
  public NodeSLOSpec specFor(Map<String, String> nodeLabels) {
    NodeSLOSpec spec = new NodeSLOSpec();
    strategies.forEach((key, byNode) -> {
      ObjectNode strategy = byNode.forNode(nodeLabels);
      if (!strategy.isEmpty()) {
        key.setter().accept(spec, strategy);
      }
    });
    return spec;
  }

  private static Strategies strategies(Key key, String json) {
    if (json == null) {
      return new Strategies(key.defaults(), List.of());
    }
    JsonNode root = tree(key, json);
    ObjectNode cluster = merge(key.defaults(), objectAt(key, root, "clusterStrategy"));
    check(key, "clusterStrategy", cluster);
    List<NodeStrategy> nodes = new ArrayList<>();
    JsonNode list = root.path("nodeStrategies");
    if (!list.isMissingNode() && !list.isArray()) {
      throw new IllegalArgumentException(where(key, "nodeStrategies") + " must be a list");
    }
    for (int i = 0; i < list.size(); i++) {
      String path = "nodeStrategies[" + i + "]";
      ObjectNode node = objectAt(key, list, i, path);
      LabelSelector selector = LabelSelectors.parse(node.remove("nodeSelector"), where(key, path + ".nodeSelector"));
      node.remove("name");
      ObjectNode merged = merge(cluster, node);
      check(key, path, merged);
      nodes.add(new NodeStrategy(selector, merged));
    }
    return new Strategies(cluster, nodes);
  }

  private static JsonNode tree(Key key, String json) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(where(key, "") + " is not valid JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException(where(key, "") + " must be a JSON object");
    }
    return root;
  }

  private static ObjectNode objectAt(Key key, JsonNode parent, String field) {
    JsonNode value = parent.get(field);
    if (value == null || value.isNull()) {
      return JSON.createObjectNode();
    }
    if (!value.isObject()) {
      throw new IllegalArgumentException(where(key, field) + " must be an object, not " + value);
    }
    return (ObjectNode) value;
  }

  private static ObjectNode objectAt(Key key, JsonNode list, int index, String path) {
    JsonNode value = list.get(index);
    if (!value.isObject()) {
      throw new IllegalArgumentException(where(key, path) + " must be an object, not " + value);
    }
    return ((ObjectNode) value).deepCopy();
  }

  /** Fields of {@code over} replace those of {@code base}; objects in both are merged the same way. */
  static ObjectNode merge(ObjectNode base, ObjectNode over) {
    ObjectNode merged = base.deepCopy();
    over.fields().forEachRemaining(field -> {
      JsonNode old = merged.get(field.getKey());
      merged.set(field.getKey(), old instanceof ObjectNode oldObject && field.getValue() instanceof ObjectNode newObject
          ? merge(oldObject, newObject) : field.getValue().deepCopy());
    });
    return merged;
  }

  /** The strategy must read as its NodeSLO field would, or the API server would reject every NodeSLO. */
  private static void check(Key key, String path, ObjectNode strategy) {
    try {
      NodeSLOSpec spec = new NodeSLOSpec();
      key.setter().accept(spec, strategy);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where(key, path) + ": " + e.getMessage(), e);
    }
  }

  private static ResourceThresholdStrategy thresholds(ObjectNode strategy) {
    ResourceThresholdStrategy thresholds = JSON.convertValue(strategy, ResourceThresholdStrategy.class);
    percent("cpuSuppressThresholdPercent", thresholds.getCpuSuppressThresholdPercent());
    percent("cpuSuppressMinPercent", thresholds.getCpuSuppressMinPercent());
    percent("memoryEvictThresholdPercent", thresholds.getMemoryEvictThresholdPercent());
    percent("memoryEvictLowerPercent", thresholds.getMemoryEvictLowerPercent());
    percent("cpuEvictBESatisfactionUpperPercent", thresholds.getCpuEvictBESatisfactionUpperPercent());
    percent("cpuEvictBESatisfactionLowerPercent", thresholds.getCpuEvictBESatisfactionLowerPercent());
    percent("cpuEvictBEUsageThresholdPercent", thresholds.getCpuEvictBEUsageThresholdPercent());
    return thresholds;
  }

  private static void percent(String field, Long value) {
    if (value != null && (value < 0 || value > 100)) {
      throw new IllegalArgumentException(field + " must be within 0..100, not " + value);
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(ObjectNode strategy) {
    return JSON.convertValue(strategy, Map.class);
  }

  private static ObjectNode object(String json) {
    try {
      return (ObjectNode) JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String where(Key key, String field) {
    return "ConfigMap " + SloConfigMap.NAME + " key " + key.name() + (field.isEmpty() ? "" : ": " + field);
  }
}
