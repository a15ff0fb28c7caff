package io.koord4j.webhook;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.koord4j.api.WellKnown;
import io.koord4j.webhook.admission.pod.GangLookup;
import io.koord4j.webhook.admission.pod.PodGangMutator;
import io.koord4j.webhook.registration.MutatingEndpoint;
import io.koord4j.webhook.registration.NamespacedRules;
import java.util.List;

/**
 * The webhooks of pods. Pod creation is never blocked by koord4j (failurePolicy Ignore): a pod
 * created while the webhook is down misses only the gang annotations, which the PodGroup label
 * already stands for.
 *
 * <p>Selection: annotations cannot be selected, so the API server sends only pods with the label
 * {@code pod-group.scheduling.sigs.k8s.io}, which the manager puts on the pod templates of every
 * gang job when it resumes it (with the {@code koord-queue/related-queueunit} annotation). Pods of
 * single-pod jobs are no gang and are never sent.
 */
public final class PodWebhooks {
  private PodWebhooks() {}

  /** @param gangs the PodGroups the manager created for admitted jobs */
  public static List<MutatingEndpoint> mutating(GangLookup gangs) {
    return List.of(
        new MutatingEndpoint(
            "gangs.pods.koord4j.io",
            "/mutate-pods-gangs",
            List.of(NamespacedRules.of("", "v1", "pods", "CREATE")),
            new PodGangMutator(gangs),
            new LabelSelectorBuilder()
                .addNewMatchExpression()
                .withKey(WellKnown.POD_GROUP_LABEL)
                .withOperator("Exists")
                .endMatchExpression()
                .build(),
            "Ignore"));
  }
}
