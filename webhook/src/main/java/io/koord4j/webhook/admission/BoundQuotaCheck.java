package io.koord4j.webhook.admission;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.quota.kube.QuotaBinding;
import io.koord4j.quota.kube.QuotaResolver;
import io.koord4j.webhook.admission.quota.QuotaLookup;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Refuses a job whose {@code quota.scheduling.koordinator.sh/name} label names a quota that is not
 * bound to the job's namespace ({@link QuotaBinding}), so that a tenant learns at once that it
 * cannot spend another team's quota. The manager refuses such a unit too, for jobs the webhook
 * did not see; a quota the cache does not hold is left to it.
 *
 * <p>The quotas come from a cache that may lag the API server by a moment, so a refusal is taken
 * again on {@link QuotaLookup#fresh} quotas: the quota may have been bound just before the job came.
 */
record BoundQuotaCheck(QuotaLookup quotas) {

  /** Why a created job may not name its quota; empty when it may, or names none. */
  Optional<String> refusal(ObjectMeta job, String namespace) {
    return QuotaResolver.labelled(job)
        .flatMap(quota -> refusal(job, namespace, quota, quotas.all())
            .flatMap(cached -> refusal(job, namespace, quota, quotas.fresh())));
  }

  /** As {@link #refusal}, for an update that changes the quota the label names. */
  Optional<String> refusalOfChange(ObjectMeta before, ObjectMeta after, String namespace) {
    return QuotaResolver.labelled(before).equals(QuotaResolver.labelled(after))
        ? Optional.empty()
        : refusal(after, namespace);
  }

  private static Optional<String> refusal(
      ObjectMeta job, String namespace, String quota, Collection<ElasticQuota> known) {
    Map<String, ElasticQuota> byName =
        known.stream().collect(Collectors.toMap(q -> q.getMetadata().getName(), Function.identity(), (a, b) -> a));
    return QuotaBinding.refusal(job, namespace, quota, byName);
  }
}
