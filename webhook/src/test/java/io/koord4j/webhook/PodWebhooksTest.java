package io.koord4j.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.koord4j.api.WellKnown;
import io.koord4j.jobs.JobAdapters;
import io.koord4j.api.quota.ElasticQuotaProfile;
import io.koord4j.webhook.registration.ClientEndpoint;
import io.koord4j.webhook.registration.MutatingEndpoint;
import io.koord4j.webhook.registration.WebhookConfigurations;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class PodWebhooksTest {
  @Test
  void gangPodsAreSelectedByThePodGroupLabelAndNeverBlocked() {
    MutatingWebhookConfiguration config =
        new WebhookConfigurations(new WebhookConfigurations.Names("m", "v"), "koord4j-system", null, false, "koord4j")
            .mutating(
                JobAdapters.builtIn(),
                PodWebhooks.mutating((namespace, group) -> OptionalInt.empty()),
                new ClientEndpoint.Url("127.0.0.1", 9443),
                "bundle");

    assertThat(config.getWebhooks()).last().satisfies(webhook -> {
      assertThat(webhook.getName()).isEqualTo("gangs.pods.koord4j.io");
      assertThat(webhook.getFailurePolicy()).isEqualTo("Ignore");
      assertThat(webhook.getRules()).singleElement().satisfies(rule -> {
        assertThat(rule.getApiGroups()).containsExactly("");
        assertThat(rule.getResources()).containsExactly("pods");
        assertThat(rule.getOperations()).containsExactly("CREATE");
      });
      assertThat(webhook.getObjectSelector().getMatchExpressions())
          .extracting(e -> e.getKey() + " " + e.getOperator())
          .containsExactly(WellKnown.POD_GROUP_LABEL + " Exists");
      assertThat(webhook.getNamespaceSelector().getMatchExpressions().get(0).getValues())
          .containsExactly("koord4j-system", "kube-system");
      assertThat(webhook.getClientConfig().getUrl()).endsWith("/mutate-pods-gangs");
      assertThat(webhook.getMatchConditions()).singleElement().satisfies(condition ->
          assertThat(condition.getExpression())
              .contains("'" + WellKnown.GANG_NAME + "' in object.metadata.annotations")
              .contains("'" + WellKnown.GANG_MIN_AVAILABLE + "' in object.metadata.annotations"));
    });
  }

  @Test
  void theQuotaTreeWebhookIsWantedOnlyWhileAProfileExists() {
    List<ElasticQuotaProfile> profiles = new ArrayList<>();
    MutatingEndpoint quotaTrees = PodWebhooks.quotaTrees(List::of, () -> profiles);

    assertThat(quotaTrees.wanted().getAsBoolean()).isFalse();
    profiles.add(new ElasticQuotaProfile());
    assertThat(quotaTrees.wanted().getAsBoolean()).isTrue();
  }
}
