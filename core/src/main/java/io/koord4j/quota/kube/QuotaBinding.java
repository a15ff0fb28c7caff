package io.koord4j.quota.kube;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Which quotas the work of a namespace may charge: only those bound to it, so that a tenant's job
 * cannot spend another team's quota by naming it. A quota is bound to the namespace it lives in and
 * to those its {@code quota.scheduling.koordinator.sh/namespaces} annotation lists. Koordinator's
 * own quotas have rules of their own: {@code koordinator-system-quota} serves only {@value
 * #SYSTEM_NAMESPACE}, and {@code koordinator-default-quota} only namespaces that no other leaf
 * quota is bound to. Pure.
 */
public final class QuotaBinding {
  private QuotaBinding() {}

  /** The one namespace {@code koordinator-system-quota} serves: the cluster's own components'. */
  public static final String SYSTEM_NAMESPACE = "kube-system";

  private static final String LABEL_FIELD = "metadata.labels[" + WellKnown.QUOTA_NAME + "]: ";

  /**
   * Why work of {@code namespace} may not charge {@code quota}; empty when it may, or when no such
   * quota exists (admission reports a missing quota on its own). The reason names the quota label
   * when {@code metadata} names the quota by it.
   *
   * @param metadata the job's or unit's metadata; its namespace may be unset, as in a creation
   *     request, which is why {@code namespace} is given apart
   * @param quotas every ElasticQuota, by name
   */
  public static Optional<String> refusal(
      ObjectMeta metadata, String namespace, String quota, Map<String, ElasticQuota> quotas) {
    String field = QuotaResolver.labelled(metadata).filter(quota::equals).isPresent() ? LABEL_FIELD : "";
    return refusal(namespace, quota, quotas).map(reason -> field + reason);
  }

  /**
   * Whether work of {@code namespace} may charge the quota: true also when no such quota exists,
   * which admission reports on its own.
   */
  public static boolean mayCharge(String namespace, String quota, Map<String, ElasticQuota> quotas) {
    return refusal(namespace, quota, quotas).isEmpty();
  }

  private static Optional<String> refusal(String namespace, String quota, Map<String, ElasticQuota> quotas) {
    ElasticQuota named = quotas.get(quota);
    if (named == null) {
      return Optional.empty();
    }
    String notBound = "quota \"" + quota + "\" is not bound to namespace \"" + namespace + "\" (";
    return switch (quota) {
      case WellKnown.SYSTEM_QUOTA -> SYSTEM_NAMESPACE.equals(namespace)
          ? Optional.empty()
          : Optional.of(notBound + "it serves only \"" + SYSTEM_NAMESPACE + "\")");
      case WellKnown.DEFAULT_QUOTA -> firstServing(namespace, quotas)
          .map(other -> notBound + "it serves only namespaces no other quota is bound to, and quota \""
              + other + "\" is)");
      default -> binds(named, namespace)
          ? Optional.empty()
          : Optional.of(notBound + "it lives in \"" + named.getMetadata().getNamespace() + "\" and "
              + listed(ElasticQuotaSpecs.boundNamespaces(named)) + ")");
    };
  }

  /**
   * The first quota, by name, that serves the namespace's work by binding alone: a leaf of the
   * tree, not one of Koordinator's own, bound to the namespace. Without one, the namespace's work
   * that names no quota goes to {@code koordinator-default-quota}.
   */
  static Optional<String> firstServing(String namespace, Map<String, ElasticQuota> quotas) {
    return quotas.values().stream()
        .filter(quota -> !SystemQuotas.isSystemQuota(quota.getMetadata().getName()))
        .filter(quota -> !"true".equals(ElasticQuotaSpecs.labels(quota).get(WellKnown.QUOTA_IS_PARENT)))
        .filter(quota -> binds(quota, namespace))
        .map(quota -> quota.getMetadata().getName())
        .sorted()
        .findFirst();
  }

  /** Whether an ordinary quota is bound to the namespace: it lives there or lists it. */
  static boolean binds(ElasticQuota quota, String namespace) {
    return Objects.equals(quota.getMetadata().getNamespace(), namespace)
        || ElasticQuotaSpecs.boundNamespaces(quota).contains(namespace);
  }

  private static String listed(List<String> namespaces) {
    return namespaces.isEmpty()
        ? "lists no other namespaces"
        : "lists only " + namespaces.stream().map(n -> "\"" + n + "\"").collect(Collectors.joining(", "));
  }
}
