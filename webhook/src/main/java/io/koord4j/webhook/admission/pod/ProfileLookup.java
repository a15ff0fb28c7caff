package io.koord4j.webhook.admission.pod;

import io.koord4j.api.quota.ElasticQuotaProfile;
import java.util.Collection;

/**
 * Every ElasticQuotaProfile in the cluster. Called on every pod's creation: backed by an informer
 * cache, by a fixed list in tests.
 */
@FunctionalInterface
public interface ProfileLookup {
  /** The profiles as last seen. */
  Collection<ElasticQuotaProfile> all();
}
