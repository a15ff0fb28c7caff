package io.koord4j.webhook.admission.quota;

import io.koord4j.api.quota.ElasticQuota;
import java.util.Collection;

/**
 * Every ElasticQuota in the cluster (names are unique cluster-wide). Called on every quota
 * admission: backed by an informer cache, by a fixed list in tests.
 */
@FunctionalInterface
public interface QuotaLookup {
  /** The quotas as last seen; a cache may miss one written a moment ago. */
  Collection<ElasticQuota> all();

  /** The quotas as the API server holds them now; a fixed list is always fresh. */
  default Collection<ElasticQuota> fresh() {
    return all();
  }
}
