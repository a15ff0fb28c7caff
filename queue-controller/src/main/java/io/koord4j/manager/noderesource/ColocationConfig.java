package io.koord4j.manager.noderesource;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.koord4j.manager.support.LabelSelectors;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code colocation-config} key of Koordinator's {@code slo-controller-config} ConfigMap: a
 * cluster strategy and {@code nodeConfigs} that override it for nodes matching their {@code
 * nodeSelector} (the first match wins); no I/O.
 */
public final class ColocationConfig {
  public static final String CONFIG_MAP = SloConfigMap.NAME;
  public static final String KEY = "colocation-config";
  private static final ObjectMapper JSON = new ObjectMapper();

  private record NodeConfig(LabelSelector selector, JsonNode overrides) {}

  private final JsonNode cluster;
  private final List<NodeConfig> nodeConfigs;

  private ColocationConfig(JsonNode cluster, List<NodeConfig> nodeConfigs) {
    this.cluster = cluster;
    this.nodeConfigs = nodeConfigs;
  }

  public static final ColocationConfig DEFAULT = new ColocationConfig(JSON.createObjectNode(), List.of());

  /** Parses the ConfigMap's value; every field is checked so that a mistake names itself. */
  public static ColocationConfig parse(String json) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(where("") + " is not valid JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException(where("") + " must be a JSON object");
    }
    strategy(DEFAULT_STRATEGY_NODE, root, "");
    List<NodeConfig> nodeConfigs = new ArrayList<>();
    JsonNode list = root.path("nodeConfigs");
    for (int i = 0; i < list.size(); i++) {
      JsonNode nodeConfig = list.get(i);
      String path = "nodeConfigs[" + i + "].";
      strategy(DEFAULT_STRATEGY_NODE, nodeConfig, path);
      LabelSelector selector = LabelSelectors.parse(nodeConfig.get("nodeSelector"), where(path + "nodeSelector"));
      nodeConfigs.add(new NodeConfig(selector, nodeConfig));
    }
    return new ColocationConfig(root, nodeConfigs);
  }

  private static final JsonNode DEFAULT_STRATEGY_NODE = JSON.createObjectNode();

  /** The strategy of a node with these labels. */
  public ColocationStrategy strategyFor(Map<String, String> nodeLabels) {
    ColocationStrategy strategy = strategy(DEFAULT_STRATEGY_NODE, cluster, "");
    for (NodeConfig nodeConfig : nodeConfigs) {
      if (LabelSelectors.matches(nodeConfig.selector(), nodeLabels)) {
        return strategy(cluster, nodeConfig.overrides(), "");
      }
    }
    return strategy;
  }

  /** Fields of {@code node} over those of {@code base} over the defaults. */
  private static ColocationStrategy strategy(JsonNode base, JsonNode node, String path) {
    ColocationStrategy d = ColocationStrategy.DEFAULT;
    return new ColocationStrategy(
        bool(base, node, path, "enable", d.enable()),
        percent(base, node, path, "cpuReclaimThresholdPercent", d.cpuReclaimThresholdPercent()),
        percent(base, node, path, "memoryReclaimThresholdPercent", d.memoryReclaimThresholdPercent()),
        policy(base, node, path, "cpuCalculatePolicy", d.cpuCalculatePolicy()),
        policy(base, node, path, "memoryCalculatePolicy", d.memoryCalculatePolicy()),
        Duration.ofMinutes(positive(base, node, path, "degradeTimeMinutes", d.degradeTime().toMinutes())),
        Duration.ofSeconds(positive(base, node, path, "updateTimeThresholdSeconds", d.updateTimeThreshold().toSeconds())),
        fraction(base, node, path, "resourceDiffThreshold", d.resourceDiffThreshold()));
  }

  private static JsonNode field(JsonNode base, JsonNode node, String name) {
    return node.has(name) ? node.get(name) : base.get(name);
  }

  private static boolean bool(JsonNode base, JsonNode node, String path, String name, boolean fallback) {
    JsonNode value = field(base, node, name);
    if (value == null) {
      return fallback;
    }
    if (!value.isBoolean()) {
      throw new IllegalArgumentException(where(path + name) + " must be true or false, not " + value);
    }
    return value.booleanValue();
  }

  private static long percent(JsonNode base, JsonNode node, String path, String name, long fallback) {
    long value = whole(base, node, path, name, fallback);
    if (value < 0 || value > 100) {
      throw new IllegalArgumentException(where(path + name) + " must be within 0..100, not " + value);
    }
    return value;
  }

  private static long positive(JsonNode base, JsonNode node, String path, String name, long fallback) {
    long value = whole(base, node, path, name, fallback);
    if (value < 1) {
      throw new IllegalArgumentException(where(path + name) + " must be at least 1, not " + value);
    }
    return value;
  }

  private static long whole(JsonNode base, JsonNode node, String path, String name, long fallback) {
    JsonNode value = field(base, node, name);
    if (value == null) {
      return fallback;
    }
    if (!value.canConvertToLong() || !value.isIntegralNumber()) {
      throw new IllegalArgumentException(where(path + name) + " must be a whole number, not " + value);
    }
    return value.longValue();
  }

  private static double fraction(JsonNode base, JsonNode node, String path, String name, double fallback) {
    JsonNode value = field(base, node, name);
    if (value == null) {
      return fallback;
    }
    if (!value.isNumber() || value.doubleValue() <= 0 || value.doubleValue() > 1) {
      throw new IllegalArgumentException(where(path + name) + " must be a number in (0, 1], not " + value);
    }
    return value.doubleValue();
  }

  private static CalculatePolicy policy(JsonNode base, JsonNode node, String path, String name, CalculatePolicy fallback) {
    JsonNode value = field(base, node, name);
    return value == null ? fallback : CalculatePolicy.parse(where(path + name), value.asText());
  }

  private static String where(String field) {
    return "ConfigMap " + CONFIG_MAP + " key " + KEY + (field.isEmpty() ? "" : ": " + field);
  }
}
