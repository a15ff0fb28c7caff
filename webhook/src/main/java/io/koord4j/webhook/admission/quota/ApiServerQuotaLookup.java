package io.koord4j.webhook.admission.quota;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.api.quota.ElasticQuota;
import java.util.Collection;

/**
 * Lists the ElasticQuotas on every call. Good enough for a webhook that runs alone; the manager
 * passes a lookup over its informer cache instead. A failed list fails the admission, so that a
 * quota is never admitted unchecked.
 */
public final class ApiServerQuotaLookup implements QuotaLookup {
  private final KubernetesClient client;

  public ApiServerQuotaLookup(KubernetesClient client) {
    this.client = client;
  }

  @Override
  public Collection<ElasticQuota> all() {
    return client.resources(ElasticQuota.class).inAnyNamespace().list().getItems();
  }
}
