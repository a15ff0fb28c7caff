package io.koord4j.manager.support;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/** Deep copies and structural comparison of model objects, through fabric8's serialization. */
public final class Json {
  private Json() {}

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  /** A deep copy that the caller may change freely. */
  public static <T> T copy(T value) {
    return SERIALIZATION.clone(value);
  }

  /** Equal when both serialize to the same JSON tree (model classes lack {@code equals}). */
  public static boolean same(Object a, Object b) {
    return tree(a).equals(tree(b));
  }

  /** The JSON tree of a value: comparable with equals. */
  public static JsonNode tree(Object value) {
    return SERIALIZATION.convertValue(value, JsonNode.class);
  }
}
