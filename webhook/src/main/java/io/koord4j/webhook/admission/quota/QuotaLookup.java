package io.koord4j.webhook.admission.quota;

import io.koord4j.api.quota.ElasticQuota;
import java.util.Collection;

/**
 * Every ElasticQuota in the cluster (names are unique cluster-wide). Backed by an informer cache
 * in the manager; it must answer quickly because it is called on every quota admission.
 */
@FunctionalInterface
public interface QuotaLookup {
  Collection<ElasticQuota> all();
}
