package io.koord4j.webhook.admission;

/**
 * The koord-queue Queues that exist. Called on every job admission, so it must answer quickly:
 * backed by an informer cache (see {@code io.koord4j.webhook.cache.ClusterCache}), by a fixed set
 * in tests.
 */
public interface QueueLookup {
  /**
   * Whether a Queue of this name exists in any namespace: the queue controller serves a queue by
   * its name, wherever it is kept (koord-queue keeps them in namespace {@code koord-queue}).
   */
  boolean exists(String queue);

  /** Whether the namespace holds its own Queue of this name, as Kueue's default LocalQueue. */
  boolean existsIn(String namespace, String queue);
}
