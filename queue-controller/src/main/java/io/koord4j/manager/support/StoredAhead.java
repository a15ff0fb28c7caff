package io.koord4j.manager.support;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Objects this process stored whose events its informer has not brought yet, by key: a reader
 * that takes the newer of the two copies acts on its own writes a watch's round trip sooner. An
 * entry lasts until the informer shows that version or a later one, or the object is gone.
 * Versions are compared as etcd's revisions, which the API server's resourceVersions are.
 *
 * @param <T> the kind
 */
public final class StoredAhead<T extends HasMetadata> {
  private final Map<String, T> ahead = new ConcurrentHashMap<>();

  /** This process stored the object; {@code known} is the informer's copy, if it has one. */
  public void stored(T object, T known) {
    if (known != null && !newer(object, known)) {
      return;
    }
    ahead.merge(Cache.metaNamespaceKeyFunc(object), object, (held, fresh) -> newer(fresh, held) ? fresh : held);
  }

  /** The informer brought a copy: one stored ahead of it that is no newer is dropped. */
  public void seen(T object) {
    ahead.computeIfPresent(Cache.metaNamespaceKeyFunc(object), (key, held) -> newer(held, object) ? held : null);
  }

  /** The informer saw the object deleted. */
  public void gone(T object) {
    ahead.remove(Cache.metaNamespaceKeyFunc(object));
  }

  /**
   * The newer of the informer's copy and the one stored ahead of it; null when the informer holds
   * none, as a deleted object stays deleted.
   */
  public T latest(T known) {
    if (known == null) {
      return null;
    }
    T held = ahead.get(Cache.metaNamespaceKeyFunc(known));
    return held != null && newer(held, known) ? held : known;
  }

  /** How many objects are held ahead of the informer. */
  public int size() {
    return ahead.size();
  }

  /** Whether {@code a} is a later version of its object than {@code b}. */
  public static boolean newer(HasMetadata a, HasMetadata b) {
    return version(a) > version(b);
  }

  /** The object's resourceVersion as a number (0 when it has none), to order versions by. */
  public static long version(HasMetadata object) {
    String version = object.getMetadata().getResourceVersion();
    return version == null ? 0 : Long.parseLong(version);
  }
}
