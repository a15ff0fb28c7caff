package io.koord4j.manager.support;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.util.stream.Stream;

/**
 * An informer's store that keeps objects without their managedFields, which no reader here needs,
 * and compacted ({@link CompactObjects}): for small objects such as QueueUnits these are most of
 * what an informer holds, and informers hold every object of their kind. The object is changed
 * before it is stored, so that event handlers see it as the store keeps it.
 */
final class LeanItemStore<T extends HasMetadata> implements ItemStore<T> {
  /**
   * Keyed by the shared copy of {@code namespace/name}: the same String the manager's own maps key
   * an object by (see {@code UnitSpecs.id}), instead of one more copy per object.
   */
  private final BasicItemStore<T> store = new BasicItemStore<>(object -> Cache.metaNamespaceKeyFunc(object).intern());

  @Override
  public String getKey(T object) {
    return store.getKey(object);
  }

  @Override
  public T put(String key, T object) {
    if (object.getMetadata() != null) {
      object.getMetadata().setManagedFields(null);
    }
    CompactObjects.compact(object);
    return store.put(key, object);
  }

  @Override
  public T remove(String key) {
    return store.remove(key);
  }

  @Override
  public Stream<String> keySet() {
    return store.keySet();
  }

  @Override
  public Stream<T> values() {
    return store.values();
  }

  @Override
  public int size() {
    return store.size();
  }

  @Override
  public T get(String key) {
    return store.get(key);
  }
}
