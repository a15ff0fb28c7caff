package io.koord4j.webhook;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperations;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.webhook.admission.queue.QueueUnitValidator;
import io.koord4j.webhook.admission.queue.QueueValidator;
import io.koord4j.webhook.admission.quota.ElasticQuotaDefaults;
import io.koord4j.webhook.admission.quota.ElasticQuotaValidator;
import io.koord4j.webhook.admission.quota.QuotaLookup;
import io.koord4j.webhook.registration.MutatingEndpoint;
import io.koord4j.webhook.registration.NamespacedRules;
import io.koord4j.webhook.registration.QuotaFigureUpdates;
import io.koord4j.webhook.registration.ValidatingEndpoint;
import java.util.List;

/** The webhooks of koord4j's own objects: ElasticQuota, Queue and QueueUnit. */
public final class ResourceWebhooks {
  private ResourceWebhooks() {}

  /** @param quotas every ElasticQuota, for a child's defaults taken from its parent */
  public static List<MutatingEndpoint> mutating(QuotaLookup quotas) {
    return List.of(
        new MutatingEndpoint(
            "defaults.elasticquotas.koord4j.io",
            "/mutate-elasticquotas",
            List.of(quotaRule("CREATE", "UPDATE")),
            new ElasticQuotaDefaults(quotas),
            null,
            "Fail",
            List.of(QuotaFigureUpdates.condition()),
            () -> true));
  }

  /** @param quotas every ElasticQuota, for the tree rules */
  public static List<ValidatingEndpoint> validating(QuotaLookup quotas) {
    return List.of(
        new ValidatingEndpoint(
            "elasticquotas.koord4j.io",
            "/validate-elasticquotas",
            List.of(quotaRule("CREATE", "UPDATE", "DELETE")),
            new ElasticQuotaValidator(quotas),
            List.of(QuotaFigureUpdates.condition())),
        new ValidatingEndpoint(
            "queues.koord4j.io",
            "/validate-queues",
            List.of(queueRule("queues", "CREATE", "UPDATE")),
            new QueueValidator()),
        new ValidatingEndpoint(
            "queueunits.koord4j.io",
            "/validate-queueunits",
            List.of(queueRule("queueunits", "UPDATE")),
            new QueueUnitValidator()));
  }

  private static RuleWithOperations quotaRule(String... operations) {
    return NamespacedRules.of(ElasticQuota.GROUP, ElasticQuota.VERSION, "elasticquotas", operations);
  }

  private static RuleWithOperations queueRule(String resource, String... operations) {
    return NamespacedRules.of(Queue.GROUP, Queue.VERSION, resource, operations);
  }
}
