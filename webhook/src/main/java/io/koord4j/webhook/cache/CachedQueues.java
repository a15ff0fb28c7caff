package io.koord4j.webhook.cache;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import io.koord4j.api.queue.Queue;
import io.koord4j.webhook.admission.QueueLookup;
import io.koord4j.webhook.admission.WouldBlock;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Queues from an informer cache.
 *
 * <p>A named queue the cache does not hold is looked for once on the API server before it is
 * reported missing, so that a Queue created a moment before its job draws no false warning; such
 * misses are rare, since jobs name queues that exist.
 *
 * <p>The namespace's default queue is answered from the cache alone: every unlabelled job asks
 * for it and most namespaces have none, so a read per miss would put the API server back on the
 * path of every job. A job created within the cache's lag after its namespace's default Queue
 * runs unqueued, as it would had it come a moment before the Queue; that webhook fails open
 * (failurePolicy Ignore) for the same reason.
 */
record CachedQueues(Indexer<Queue> cache, KubernetesClient client) implements QueueLookup {
  private static final Logger LOG = LoggerFactory.getLogger(CachedQueues.class);
  private static final String BY_NAME = "by-name";

  CachedQueues {
    cache.addIndexers(Map.of(BY_NAME, queue -> List.of(queue.getMetadata().getName())));
  }

  @Override
  public boolean exists(String queue) {
    return !cache.byIndex(BY_NAME, queue).isEmpty() || existsOnServer(queue);
  }

  @Override
  public boolean existsIn(String namespace, String queue) {
    return cache.getByKey(Cache.namespaceKeyFunc(namespace, queue)) != null;
  }

  private boolean existsOnServer(String queue) {
    WouldBlock.unlessBlockingAllowed();
    try {
      return !client.resources(Queue.class).inAnyNamespace().withField("metadata.name", queue)
          .list().getItems().isEmpty();
    } catch (KubernetesClientException e) {
      LOG.debug("cannot look for queue {}; reporting it missing as the cache does", queue, e);
      return false;
    }
  }
}
