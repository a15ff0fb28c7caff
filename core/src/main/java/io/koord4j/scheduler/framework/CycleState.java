package io.koord4j.scheduler.framework;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Data one pod's scheduling attempt carries from one extension point to the next, e.g. the pod's
 * request computed once at PreFilter and read by Filter on every node. Filters run in parallel,
 * so the map is concurrent.
 */
public final class CycleState {

  /** A typed slot; plugins keep their keys private so that only they read their data. */
  public static final class Key<T> {
    private final String name;

    public Key(String name) {
      this.name = name;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  private final Map<Key<?>, Object> values = new ConcurrentHashMap<>();

  public <T> void put(Key<T> key, T value) {
    values.put(key, value);
  }

  /**
   * @throws IllegalStateException when nothing was written, a bug in the plugin's point order
   */
  @SuppressWarnings("unchecked")
  public <T> T get(Key<T> key) {
    Object value = values.get(key);
    if (value == null) {
      throw new IllegalStateException("cycle state has no " + key);
    }
    return (T) value;
  }

  @SuppressWarnings("unchecked")
  public <T> T getOrNull(Key<T> key) {
    return (T) values.get(key);
  }
}
