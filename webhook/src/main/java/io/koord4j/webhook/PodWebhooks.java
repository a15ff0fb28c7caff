package io.koord4j.webhook;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MatchCondition;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MatchConditionBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperations;
import io.koord4j.api.WellKnown;
import io.koord4j.webhook.admission.pod.GangLookup;
import io.koord4j.webhook.admission.pod.PodGangMutator;
import io.koord4j.webhook.admission.pod.PodQuotaTreeMutator;
import io.koord4j.webhook.admission.pod.ProfileLookup;
import io.koord4j.webhook.admission.quota.QuotaLookup;
import io.koord4j.webhook.registration.MutatingEndpoint;
import io.koord4j.webhook.registration.NamespacedRules;
import java.util.List;

/**
 * The webhooks of pods. Pod creation is never blocked by koord4j's absence (failurePolicy Ignore):
 * a pod created while the webhook is down misses the gang annotations, which the PodGroup label
 * already stands for, and the node affinity of its quota tree.
 *
 * <p>Selection: the API server sends only pods with the label {@code
 * pod-group.scheduling.sigs.k8s.io}, which the manager puts on the pod templates of every gang job
 * when it resumes it (with the {@code koord-queue/related-queueunit} annotation and the gang
 * annotations), and of those only pods that lack a gang annotation (a match condition): pods of a
 * template some job controller rebuilt without them. Pods of single-pod jobs are no gang and are
 * never sent. Any pod may belong to a profile's quota tree (by its quota label or its namespace's
 * quota), so the quota tree webhook sees every pod while a profile exists.
 */
public final class PodWebhooks {
  private PodWebhooks() {}

  private static final List<RuleWithOperations> POD_CREATIONS =
      List.of(NamespacedRules.of("", "v1", "pods", "CREATE"));

  /** @param gangs the PodGroups the manager created for admitted jobs */
  public static List<MutatingEndpoint> mutating(GangLookup gangs) {
    return List.of(
        new MutatingEndpoint(
            "gangs.pods.koord4j.io",
            "/mutate-pods-gangs",
            POD_CREATIONS,
            new PodGangMutator(gangs),
            new LabelSelectorBuilder()
                .addNewMatchExpression()
                .withKey(WellKnown.POD_GROUP_LABEL)
                .withOperator("Exists")
                .endMatchExpression()
                .build(),
            "Ignore",
            List.of(lacksAGangAnnotation()),
            () -> true));
  }

  /**
   * Pods that already carry both gang annotations, as the manager's templates give them, are not
   * sent: the handler would leave them as they are.
   */
  private static MatchCondition lacksAGangAnnotation() {
    String annotations = "object.metadata.annotations";
    return new MatchConditionBuilder()
        .withName("lacks-a-gang-annotation")
        .withExpression(
            "!has(%1$s) || !('%2$s' in %1$s) || !('%3$s' in %1$s)"
                .formatted(annotations, WellKnown.GANG_NAME, WellKnown.GANG_MIN_AVAILABLE))
        .build();
  }

  /**
   * Gives the pods of an ElasticQuotaProfile's quota tree required affinity to the profile's nodes.
   * It is registered only while a profile exists, since it sees every pod the cluster creates. A
   * profile's tree has pods only after the manager has made its root quota in answer to the
   * profile and quotas were put under it, by which time the registration, made in answer to the
   * same profile, is in place.
   *
   * @param quotas the ElasticQuotas, whose tree ids and root quotas lead to the profile
   * @param profiles the ElasticQuotaProfiles
   */
  public static MutatingEndpoint quotaTrees(QuotaLookup quotas, ProfileLookup profiles) {
    return new MutatingEndpoint(
        "quota-trees.pods.koord4j.io",
        "/mutate-pods-quota-trees",
        POD_CREATIONS,
        new PodQuotaTreeMutator(quotas, profiles),
        null,
        "Ignore",
        List.of(),
        () -> !profiles.all().isEmpty());
  }
}
