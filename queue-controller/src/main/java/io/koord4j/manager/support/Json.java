package io.koord4j.manager.support;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Deep copies and structural comparison of model objects through their JSON form. */
public final class Json {
  private Json() {}

  private static final ObjectMapper MAPPER =
      new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  public static <T> T copy(T value, Class<T> type) {
    return MAPPER.convertValue(value, type);
  }

  /** Equal when both serialize to the same JSON tree (model classes lack {@code equals}). */
  public static boolean same(Object a, Object b) {
    return tree(a).equals(tree(b));
  }

  /** The JSON tree of a value: comparable with equals. */
  public static Object tree(Object value) {
    return MAPPER.valueToTree(value);
  }
}
