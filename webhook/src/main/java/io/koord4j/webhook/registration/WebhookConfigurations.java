package io.koord4j.webhook.registration;

import io.fabric8.kubernetes.api.Pluralize;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MatchCondition;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperations;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.koord4j.api.WellKnown;
import io.koord4j.jobs.JobAdapter;
import io.koord4j.jobs.JobAdapters;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The webhook configurations koord4j owns, built from settings alone (no client calls).
 *
 * <p>Availability: the API server calls the job webhook only for jobs koord4j queues, so that
 * while koord4j is down every other job is still created. An objectSelector cannot express "has
 * label A or label B", so the jobs webhook is split into entries that partition the queued jobs:
 *
 * <ol>
 *   <li>jobs with {@code kueue.x-k8s.io/queue-name};
 *   <li>jobs with {@code quota.scheduling.koordinator.sh/name} but not the Kueue label;
 *   <li>when a managed-namespace selector is set: jobs with neither label in those namespaces;
 *   <li>when the namespace default queue is used: jobs with neither label anywhere. This entry
 *       has failurePolicy Ignore, since such jobs are not queued when koord4j is down; in managed
 *       namespaces it overlaps entry 3, and the mutation is idempotent.
 * </ol>
 *
 * Entries 1–3, the mutating entries of other objects (unless they say otherwise) and every
 * validating entry fail closed (failurePolicy Fail): a queued job must not start unqueued, nor a
 * quota skip its checks.
 * Entries 1–3 also see the updates that may release a job its queue holds ({@link JobUpdates}).
 * The API server calls a webhook when its object selector matches the object before or after the
 * update, so a job whose queue label is removed still reaches entry 1 or 2.
 * koord4j's own namespace is never matched, so koord4j can always start, nor is {@value
 * #SYSTEM_NAMESPACE}, so a broken koord4j never blocks the cluster's own components. Jobs named
 * only by the {@code koord-queue/queue-name} annotation reach the webhook through entries 3 or 4
 * only, since annotations cannot be selected.
 *
 * @param managedNamespaces namespaces whose jobs are all queued, or null for none
 * @param koord4jUser the user koord4j's client is authenticated as (see {@link Koord4jUser}): only
 *     its updates may resume a job its queue holds, so the API server need not send them
 */
public record WebhookConfigurations(
    Names names,
    String ownNamespace,
    LabelSelector managedNamespaces,
    boolean useNamespaceDefaultQueue,
    String koord4jUser) {
  /** Where the API server sends jobs matched by their labels. */
  public static final String JOBS_PATH = "/mutate-jobs";
  /** Where it sends unlabelled jobs of managed namespaces. */
  public static final String MANAGED_NAMESPACE_JOBS_PATH = "/mutate-jobs-in-managed-namespaces";
  /**
   * Where it sends unlabelled jobs for their namespace's default queue; a path of its own, since
   * that webhook fails open and the labelled ones fail closed.
   */
  public static final String DEFAULT_QUEUE_JOBS_PATH = "/mutate-jobs-default-queue";
  /** How long the API server waits for every koord4j webhook. */
  public static final int TIMEOUT_SECONDS = 10;

  /** The namespace of the cluster's own components, which no koord4j webhook matches. */
  public static final String SYSTEM_NAMESPACE = "kube-system";

  private static final String NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";
  private static final Map<String, String> OWNER_LABELS =
      Map.of("app.kubernetes.io/managed-by", "koord4j");

  public WebhookConfigurations {
    Objects.requireNonNull(koord4jUser, "koord4jUser");
  }

  /** The configuration names; tests use their own so they never collide with a real install. */
  public record Names(String mutating, String validating) {
    public static final Names DEFAULT = prefixed("koord4j");

    /** {@code <prefix>-mutating} and {@code <prefix>-validating}. */
    public static Names prefixed(String prefix) {
      return new Names(prefix + "-mutating", prefix + "-validating");
    }
  }

  public MutatingWebhookConfiguration mutating(
      JobAdapters adapters,
      List<MutatingEndpoint> mutators,
      ClientEndpoint endpoint,
      String caBundlePem) {
    List<RuleWithOperations> rules =
        adapters.all().stream().map(adapter -> jobRule(adapter, "CREATE")).toList();
    // Queued jobs are also checked on update: a held job stays held, a running gang keeps its
    // queue and its size.
    List<RuleWithOperations> queuedRules =
        adapters.all().stream().map(adapter -> jobRule(adapter, "CREATE", "UPDATE")).toList();
    MatchCondition labelledJobUpdates = JobUpdates.labelledJobs(adapters.all(), koord4jUser);
    List<MutatingWebhook> webhooks = new ArrayList<>();
    webhooks.add(
        mutatingWebhook("queue-name.jobs.koord4j.io", queuedRules, endpoint, caBundlePem, JOBS_PATH)
            .withObjectSelector(selector(exists(WellKnown.KUEUE_QUEUE_NAME)))
            .withMatchConditions(labelledJobUpdates)
            .withNamespaceSelector(notExempt(null))
            .build());
    webhooks.add(
        mutatingWebhook("quota-name.jobs.koord4j.io", queuedRules, endpoint, caBundlePem, JOBS_PATH)
            .withObjectSelector(
                selector(exists(WellKnown.QUOTA_NAME), absent(WellKnown.KUEUE_QUEUE_NAME)))
            .withMatchConditions(labelledJobUpdates)
            .withNamespaceSelector(notExempt(null))
            .build());
    if (managedNamespaces != null) {
      webhooks.add(
          mutatingWebhook(
                  "managed-namespaces.jobs.koord4j.io",
                  queuedRules,
                  endpoint,
                  caBundlePem,
                  MANAGED_NAMESPACE_JOBS_PATH)
              .withObjectSelector(unlabelled())
              .withMatchConditions(JobUpdates.managedNamespaceJobs(adapters.all(), koord4jUser))
              .withNamespaceSelector(notExempt(managedNamespaces))
              .build());
    }
    if (useNamespaceDefaultQueue) {
      webhooks.add(
          mutatingWebhook(
                  "default-queue.jobs.koord4j.io",
                  rules,
                  endpoint,
                  caBundlePem,
                  DEFAULT_QUEUE_JOBS_PATH)
              .withObjectSelector(unlabelled())
              .withNamespaceSelector(notExempt(null))
              .withFailurePolicy("Ignore")
              .build());
    }
    for (MutatingEndpoint mutator : mutators) {
      webhooks.add(
          mutatingWebhook(mutator.name(), mutator.rules(), endpoint, caBundlePem, mutator.path())
              .withObjectSelector(mutator.objectSelector())
              .withMatchConditions(mutator.matchConditions())
              .withNamespaceSelector(notExempt(null))
              .withFailurePolicy(mutator.failurePolicy())
              .build());
    }
    return new MutatingWebhookConfigurationBuilder()
        .withMetadata(owned(names.mutating()))
        .withWebhooks(webhooks)
        .build();
  }

  public ValidatingWebhookConfiguration validating(
      List<ValidatingEndpoint> validators, ClientEndpoint endpoint, String caBundlePem) {
    List<ValidatingWebhook> webhooks =
        validators.stream()
            .map(
                validator ->
                    new ValidatingWebhookBuilder()
                        .withName(validator.name())
                        .withRules(validator.rules())
                        .withClientConfig(endpoint.clientConfig(validator.path(), caBundlePem))
                        .withMatchConditions(validator.matchConditions())
                        .withNamespaceSelector(notExempt(null))
                        .withFailurePolicy("Fail")
                        .withSideEffects("None")
                        .withAdmissionReviewVersions("v1")
                        .withTimeoutSeconds(TIMEOUT_SECONDS)
                        .build())
            .toList();
    return new ValidatingWebhookConfigurationBuilder()
        .withMetadata(owned(names.validating()))
        .withWebhooks(webhooks)
        .build();
  }

  private static ObjectMeta owned(String name) {
    return new ObjectMetaBuilder().withName(name).withLabels(OWNER_LABELS).build();
  }

  private static MutatingWebhookBuilder mutatingWebhook(
      String name,
      List<RuleWithOperations> rules,
      ClientEndpoint endpoint,
      String caBundlePem,
      String path) {
    return new MutatingWebhookBuilder()
        .withName(name)
        .withRules(rules)
        .withClientConfig(endpoint.clientConfig(path, caBundlePem))
        .withFailurePolicy("Fail")
        .withSideEffects("None")
        .withAdmissionReviewVersions("v1")
        .withReinvocationPolicy("Never")
        .withTimeoutSeconds(TIMEOUT_SECONDS);
  }

  /** The job kind of the adapter, on the given operations. */
  private static RuleWithOperations jobRule(JobAdapter<?> adapter, String... operations) {
    String apiVersion = adapter.apiVersion();
    int slash = apiVersion.indexOf('/');
    return NamespacedRules.of(
        slash < 0 ? "" : apiVersion.substring(0, slash),
        apiVersion.substring(slash + 1),
        Pluralize.toPlural(adapter.kind().toLowerCase(Locale.ROOT)),
        operations);
  }

  /** The namespaces of {@code base} (every one when null) but koord4j's own and the system's. */
  private LabelSelector notExempt(LabelSelector base) {
    LabelSelectorBuilder builder =
        base == null ? new LabelSelectorBuilder() : new LabelSelectorBuilder(base);
    return builder
        .addToMatchExpressions(
            new LabelSelectorRequirementBuilder()
                .withKey(NAMESPACE_NAME_LABEL)
                .withOperator("NotIn")
                .withValues(Stream.of(ownNamespace, SYSTEM_NAMESPACE).distinct().toList())
                .build())
        .build();
  }

  private static LabelSelector unlabelled() {
    return selector(absent(WellKnown.KUEUE_QUEUE_NAME), absent(WellKnown.QUOTA_NAME));
  }

  private static LabelSelector selector(LabelSelectorRequirement... requirements) {
    return new LabelSelectorBuilder().withMatchExpressions(requirements).build();
  }

  private static LabelSelectorRequirement exists(String key) {
    return new LabelSelectorRequirementBuilder().withKey(key).withOperator("Exists").build();
  }

  private static LabelSelectorRequirement absent(String key) {
    return new LabelSelectorRequirementBuilder().withKey(key).withOperator("DoesNotExist").build();
  }
}
