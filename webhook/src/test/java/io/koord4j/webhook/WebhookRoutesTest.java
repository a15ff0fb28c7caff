package io.koord4j.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.koord4j.jobs.JobAdapters;
import io.koord4j.webhook.admission.FixedQueues;
import io.koord4j.webhook.admission.JobMutator;
import io.koord4j.webhook.http.AdmissionRoute;
import io.koord4j.webhook.registration.ClientEndpoint;
import io.koord4j.webhook.registration.MutatingEndpoint;
import io.koord4j.webhook.registration.ValidatingEndpoint;
import io.koord4j.webhook.registration.WebhookConfigurations;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The server answers a failing handler as the API server would its webhook being down. */
class WebhookRoutesTest {
  private static final ClientEndpoint ENDPOINT = new ClientEndpoint.Url("127.0.0.1", 9443);

  @Test
  void everyPathFailsOpenExactlyWhenItsWebhookIsRegisteredWithIgnore() {
    List<MutatingEndpoint> mutators =
        Stream.concat(
                ResourceWebhooks.mutating(List::of).stream(),
                PodWebhooks.mutating((namespace, group) -> OptionalInt.empty()).stream())
            .toList();
    List<ValidatingEndpoint> validators = ResourceWebhooks.validating(List::of);
    WebhookConfigurations configurations =
        new WebhookConfigurations(
            new WebhookConfigurations.Names("m", "v"),
            "koord4j-system",
            new LabelSelectorBuilder().addToMatchLabels("managed", "true").build(),
            true,
            "koord4j");
    Map<String, AdmissionRoute> routes =
        WebhookServer.routes(
            new JobMutator(JobAdapters.builtIn(), FixedQueues.NONE, List::of, true, "koord4j"), mutators, validators);

    List<MutatingWebhook> mutating =
        configurations.mutating(JobAdapters.builtIn(), mutators, ENDPOINT, "bundle").getWebhooks();
    List<ValidatingWebhook> validating =
        configurations.validating(validators, ENDPOINT, "bundle").getWebhooks();

    assertThat(mutating).extracting(MutatingWebhook::getFailurePolicy).contains("Ignore", "Fail");
    mutating.forEach(
        webhook ->
            assertThat(routes.get(path(webhook.getClientConfig().getUrl())).failsOpen())
                .as(webhook.getName())
                .isEqualTo("Ignore".equals(webhook.getFailurePolicy())));
    validating.forEach(
        webhook ->
            assertThat(routes.get(path(webhook.getClientConfig().getUrl())).failsOpen())
                .as(webhook.getName())
                .isEqualTo("Ignore".equals(webhook.getFailurePolicy())));
  }

  private static String path(String url) {
    return url.substring(url.indexOf('/', "https://".length()));
  }
}
