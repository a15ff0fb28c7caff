package io.koord4j.scheduler.plugins;

import java.util.Map;

/** A topology domain: a node label key and one of its values, e.g. one zone. */
public record TopologyPair(String key, String value) {

  /** The domain of {@code key} a node with these labels is in, null when it lacks the key. */
  public static TopologyPair of(String key, Map<String, String> nodeLabels) {
    String value = nodeLabels.get(key);
    return value == null ? null : new TopologyPair(key, value);
  }
}
