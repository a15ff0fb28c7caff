package io.koord4j.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.koord4j.webhook.registration.WebhookConfigurations;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WebhookSettingsTest {
  @Test
  void theEnvironmentChoosesTheQueueingAndTheEndpoint() {
    WebhookSettings settings =
        WebhookSettings.fromEnvironment(
            Map.of(
                "KOORD4J_NAMESPACE", "ops",
                "KOORD4J_MANAGED_NAMESPACES", "team = ml",
                "KOORD4J_NAMESPACE_DEFAULT_QUEUE", "true",
                "KOORD4J_WEBHOOK_URL_HOST", "127.0.0.1",
                "KOORD4J_WEBHOOK_PORT", "19443",
                "KOORD4J_WEBHOOK_CONFIGURATION_PREFIX", "koord4j-canary"));

    assertThat(settings.namespace()).isEqualTo("ops");
    assertThat(settings.managedNamespaces().getMatchLabels()).containsExactly(Map.entry("team", "ml"));
    assertThat(settings.useNamespaceDefaultQueue()).isTrue();
    assertThat(settings.localUrlHost()).isEqualTo("127.0.0.1");
    assertThat(settings.port()).isEqualTo(19443);
    assertThat(settings.configurationNames())
        .isEqualTo(new WebhookConfigurations.Names("koord4j-canary-mutating", "koord4j-canary-validating"));
  }

  @Test
  void theWebhookListensOnTheAddressGivenUnlessTheApiServerCallsAUrlHost() {
    assertThat(WebhookSettings.fromEnvironment(Map.of()).bindHost()).isEqualTo("0.0.0.0");
    assertThat(WebhookSettings.fromEnvironment(Map.of("KOORD4J_WEBHOOK_ADDRESS", "10.1.2.3")).bindHost())
        .isEqualTo("10.1.2.3");
    assertThat(WebhookSettings.fromEnvironment(
            Map.of("KOORD4J_WEBHOOK_ADDRESS", "10.1.2.3", "KOORD4J_WEBHOOK_URL_HOST", "127.0.0.1")).bindHost())
        .isEqualTo("127.0.0.1");
  }

  @Test
  void anEmptyEnvironmentGivesTheInClusterDefaults() {
    assertThat(WebhookSettings.fromEnvironment(Map.of()))
        .isEqualTo(WebhookSettings.defaults("koord4j-system"));
  }

  @Test
  void unreadableValuesNameTheirVariable() {
    assertThatThrownBy(() -> WebhookSettings.fromEnvironment(Map.of("KOORD4J_MANAGED_NAMESPACES", "team")))
        .hasMessageContaining("KOORD4J_MANAGED_NAMESPACES must be key=value");
    assertThatThrownBy(
            () -> WebhookSettings.fromEnvironment(
                Map.of("KOORD4J_WEBHOOK_URL_HOST", "127.0.0.1", "KOORD4J_WEBHOOK_PORT", "x")))
        .hasMessageContaining("KOORD4J_WEBHOOK_PORT must be a port number, got x");
  }
}
