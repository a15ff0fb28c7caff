package io.koord4j.manager.admission;

import io.koord4j.api.queue.Queue;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.quota.kube.QuotaBinding;
import java.util.Map;

/**
 * Queues are namespaced, so the admission core, the status and the metrics know each one by
 * {@code namespace/name}. A unit names its queue by name only: it waits in the Queue of that name
 * in its own namespace (Kueue's convention) if there is one, else in the one in {@value
 * Queue#DEFAULT_NAMESPACE} (koord-queue's). There the queue of a quota, named like it, serves only
 * the namespaces bound to that quota ({@link QuotaBinding}), so that no tenant joins another's
 * queue; a Queue that is no quota's, such as one {@code kubectl koord4j import kueue} makes of
 * Kueue LocalQueues of one name in many namespaces, serves every namespace. Pure.
 */
public final class QueueKeys {
  private QueueKeys() {}

  public static String of(Queue queue) {
    return of(queue.getMetadata().getNamespace(), queue.getMetadata().getName());
  }

  /** One shared String per Queue: each waiting unit's spec in the core holds its queue's key. */
  public static String of(String namespace, String name) {
    return (namespace + "/" + name).intern();
  }

  /**
   * @param queues every Queue, by key
   * @param quotas every ElasticQuota, by name
   * @return the key of the queue a unit of {@code namespace} naming {@code name} waits in; its own
   *     namespace's key when no such Queue exists yet, or when the shared one is the queue of a
   *     quota not bound to {@code namespace}
   */
  public static String resolve(
      String namespace, String name, Map<String, Queue> queues, Map<String, ElasticQuota> quotas) {
    String own = of(namespace, name);
    String shared = of(Queue.DEFAULT_NAMESPACE, name);
    boolean sharedServes = queues.containsKey(shared) && QuotaBinding.mayCharge(namespace, name, quotas);
    return !queues.containsKey(own) && sharedServes ? shared : own;
  }

  public static String namespace(String key) {
    return key.substring(0, key.indexOf('/'));
  }

  public static String name(String key) {
    return key.substring(key.indexOf('/') + 1);
  }
}
