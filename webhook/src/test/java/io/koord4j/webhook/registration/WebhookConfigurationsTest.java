package io.koord4j.webhook.registration;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperationsBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.koord4j.api.WellKnown;
import io.koord4j.jobs.JobAdapters;
import io.koord4j.webhook.admission.AdmissionResponses;
import java.util.Base64;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class WebhookConfigurationsTest {
  private static final String BUNDLE = "-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n";
  private static final WebhookConfigurations.Names NAMES = new WebhookConfigurations.Names("m", "v");
  private static final String KOORD4J = "system:serviceaccount:koord4j-system:koord4j-manager";

  @Test
  void queuedJobsAreSelectedByEitherLabelAndFailClosed() {
    MutatingWebhookConfiguration config = new WebhookConfigurations(NAMES, "koord4j-system", null, false, KOORD4J)
        .mutating(JobAdapters.builtIn(), List.of(), new ClientEndpoint.Url("127.0.0.1", 9443), BUNDLE);

    assertThat(config.getMetadata().getName()).isEqualTo("m");
    assertThat(config.getWebhooks()).hasSize(2).allSatisfy(webhook -> {
      assertThat(webhook.getFailurePolicy()).isEqualTo("Fail");
      assertThat(webhook.getClientConfig().getUrl()).isEqualTo("https://127.0.0.1:9443/mutate-jobs");
      assertThat(new String(Base64.getDecoder().decode(webhook.getClientConfig().getCaBundle())))
          .isEqualTo(BUNDLE);
      assertThat(webhook.getRules().get(0).getApiGroups()).containsExactly("batch");
      assertThat(webhook.getRules().get(0).getResources()).containsExactly("jobs");
      assertThat(webhook.getRules().get(0).getOperations()).containsExactly("CREATE", "UPDATE");
      assertThat(webhook.getNamespaceSelector().getMatchExpressions().get(0).getValues())
          .containsExactly("koord4j-system", "kube-system");
      assertThat(webhook.getMatchConditions()).singleElement().satisfies(condition -> {
        assertThat(condition.getName()).isEqualTo(JobUpdates.LABELLED_JOBS);
        assertThat(condition.getExpression()).contains("request.userInfo.username != '" + KOORD4J + "'");
      });
    });
    MutatingWebhook byQuota = config.getWebhooks().get(1);
    assertThat(byQuota.getObjectSelector().getMatchExpressions())
        .extracting(e -> e.getKey() + " " + e.getOperator())
        .containsExactly(WellKnown.QUOTA_NAME + " Exists", WellKnown.KUEUE_QUEUE_NAME + " DoesNotExist");
  }

  @Test
  void everyJobKindIsListedByGroupVersionAndResource() {
    MutatingWebhookConfiguration config = new WebhookConfigurations(NAMES, "koord4j-system", null, false, KOORD4J)
        .mutating(JobAdapters.builtIn(), List.of(), new ClientEndpoint.Url("127.0.0.1", 9443), BUNDLE);

    assertThat(config.getWebhooks().get(0).getRules())
        .extracting(r -> r.getApiGroups().get(0) + "/" + r.getApiVersions().get(0) + "/" + r.getResources().get(0))
        .containsExactly(
            "batch/v1/jobs",
            "kubeflow.org/v1/tfjobs",
            "kubeflow.org/v1/pytorchjobs",
            "kubeflow.org/v2beta1/mpijobs",
            "sparkoperator.k8s.io/v1beta2/sparkapplications",
            "ray.io/v1/rayjobs",
            "ray.io/v1/rayclusters",
            "argoproj.io/v1alpha1/workflows");
  }

  @Test
  void managedNamespacesAndDefaultQueueAddEntries() {
    var managed = new LabelSelectorBuilder().addToMatchLabels("koord4j.io/managed", "true").build();
    MutatingWebhookConfiguration config = new WebhookConfigurations(NAMES, "koord4j-system", managed, true, KOORD4J)
        .mutating(JobAdapters.builtIn(), List.of(), new ClientEndpoint.Service("koord4j-system", "wh", 443), BUNDLE);

    assertThat(config.getWebhooks()).extracting(MutatingWebhook::getName).containsExactly(
        "queue-name.jobs.koord4j.io", "quota-name.jobs.koord4j.io",
        "managed-namespaces.jobs.koord4j.io", "default-queue.jobs.koord4j.io");
    MutatingWebhook inManaged = config.getWebhooks().get(2);
    assertThat(inManaged.getNamespaceSelector().getMatchLabels()).containsEntry("koord4j.io/managed", "true");
    assertThat(inManaged.getClientConfig().getService().getPath())
        .isEqualTo(WebhookConfigurations.MANAGED_NAMESPACE_JOBS_PATH);
    assertThat(inManaged.getFailurePolicy()).isEqualTo("Fail");
    assertThat(inManaged.getRules().get(0).getOperations()).containsExactly("CREATE", "UPDATE");
    assertThat(inManaged.getMatchConditions()).extracting(condition -> condition.getName())
        .containsExactly(JobUpdates.MANAGED_NAMESPACE_JOBS);
    MutatingWebhook defaultQueue = config.getWebhooks().get(3);
    assertThat(defaultQueue.getFailurePolicy()).isEqualTo("Ignore");
    assertThat(defaultQueue.getRules().get(0).getOperations()).containsExactly("CREATE");
  }

  @Test
  void noWebhookMatchesTheSystemNamespaceNorKoord4jsOwn() {
    var managed = new LabelSelectorBuilder().addToMatchLabels("koord4j.io/managed", "true").build();
    var configurations = new WebhookConfigurations(NAMES, "koord4j-system", managed, true, KOORD4J);
    var endpoint = new ClientEndpoint.Url("127.0.0.1", 1);
    var validator = new ValidatingEndpoint("queues.koord4j.io", "/validate-queues", List.of(),
        review -> AdmissionResponses.allow(review.getRequest()));
    List<LabelSelector> selectors = Stream.concat(
            configurations.mutating(JobAdapters.builtIn(), List.of(), endpoint, BUNDLE).getWebhooks().stream()
                .map(MutatingWebhook::getNamespaceSelector),
            configurations.validating(List.of(validator), endpoint, BUNDLE).getWebhooks().stream()
                .map(ValidatingWebhook::getNamespaceSelector))
        .toList();

    assertThat(selectors).hasSize(5).allSatisfy(selector ->
        assertThat(selector.getMatchExpressions()).anySatisfy(expression -> {
          assertThat(expression.getKey()).isEqualTo("kubernetes.io/metadata.name");
          assertThat(expression.getOperator()).isEqualTo("NotIn");
          assertThat(expression.getValues()).containsExactlyInAnyOrder("koord4j-system", "kube-system");
        }));
  }

  @Test
  void koord4jInTheSystemNamespaceExcludesItOnce() {
    MutatingWebhookConfiguration config = new WebhookConfigurations(NAMES, "kube-system", null, false, KOORD4J)
        .mutating(JobAdapters.builtIn(), List.of(), new ClientEndpoint.Url("127.0.0.1", 1), BUNDLE);

    assertThat(config.getWebhooks().get(0).getNamespaceSelector().getMatchExpressions().get(0).getValues())
        .containsExactly("kube-system");
  }

  @Test
  void validatorsFailClosed() {
    var rule = new RuleWithOperationsBuilder().withApiGroups("scheduling.sigs.k8s.io")
        .withApiVersions("v1alpha1").withResources("elasticquotas").withOperations("CREATE", "UPDATE").build();
    var validator = new ValidatingEndpoint("elasticquotas.koord4j.io", "/validate-elasticquotas",
        List.of(rule), review -> AdmissionResponses.allow(review.getRequest()));

    var config = new WebhookConfigurations(NAMES, "koord4j-system", null, false, KOORD4J)
        .validating(List.of(validator), new ClientEndpoint.Url("127.0.0.1", 1), BUNDLE);

    assertThat(config.getMetadata().getName()).isEqualTo("v");
    assertThat(config.getWebhooks()).singleElement().satisfies(webhook -> {
      assertThat(webhook.getFailurePolicy()).isEqualTo("Fail");
      assertThat(webhook.getClientConfig().getUrl()).endsWith("/validate-elasticquotas");
    });
  }

  @Test
  void objectMutatorsFailClosedOutsideTheOwnNamespace() {
    var rule = new RuleWithOperationsBuilder().withApiGroups("scheduling.sigs.k8s.io")
        .withApiVersions("v1alpha1").withResources("elasticquotas").withOperations("CREATE").build();
    var mutator = new MutatingEndpoint("defaults.elasticquotas.koord4j.io", "/mutate-elasticquotas",
        List.of(rule), review -> AdmissionResponses.allow(review.getRequest()));

    var config = new WebhookConfigurations(NAMES, "koord4j-system", null, false, KOORD4J)
        .mutating(JobAdapters.builtIn(), List.of(mutator), new ClientEndpoint.Url("127.0.0.1", 1), BUNDLE);

    assertThat(config.getWebhooks()).last().satisfies(webhook -> {
      assertThat(webhook.getName()).isEqualTo("defaults.elasticquotas.koord4j.io");
      assertThat(webhook.getFailurePolicy()).isEqualTo("Fail");
      assertThat(webhook.getObjectSelector()).isNull();
      assertThat(webhook.getNamespaceSelector().getMatchExpressions()).singleElement()
          .satisfies(expression -> assertThat(expression.getValues()).containsExactly("koord4j-system", "kube-system"));
      assertThat(webhook.getClientConfig().getUrl()).endsWith("/mutate-elasticquotas");
    });
  }
}
