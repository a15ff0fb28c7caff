package io.koord4j.webhook.cache;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.cache.Store;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.webhook.admission.WouldBlock;
import io.koord4j.webhook.admission.quota.QuotaLookup;
import java.util.Collection;

/**
 * ElasticQuotas from an informer cache; {@link #fresh} lists them on the API server, and a failed
 * list fails the admission, so that a quota is never admitted unchecked.
 */
record CachedQuotas(Store<ElasticQuota> cache, KubernetesClient client) implements QuotaLookup {
  @Override
  public Collection<ElasticQuota> all() {
    return cache.list();
  }

  @Override
  public Collection<ElasticQuota> fresh() {
    WouldBlock.unlessBlockingAllowed();
    return client.resources(ElasticQuota.class).inAnyNamespace().list().getItems();
  }
}
