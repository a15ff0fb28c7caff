package io.koord4j.yarn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CopilotSettingsTest {
  @Test
  void defaultsSyncEverySecondUnderItsOwnLease() {
    CopilotSettings settings = CopilotSettings.from(Map.of());

    assertThat(settings.leaseName()).isEqualTo("koord4j-yarn-copilot");
    assertThat(settings.namespace()).isEqualTo("koord4j-system");
    assertThat(settings.period()).isEqualTo(Duration.ofSeconds(1));
    assertThat(settings.hadoopConfDir()).isEqualTo(Path.of("/etc/hadoop/conf"));
    assertThat(settings.leaseDuration()).isEqualTo(Duration.ofSeconds(15));
  }

  @Test
  void nodeManagersAreTakenFromTheCopilotsNamespaceAndAccountByDefault() {
    CopilotSettings settings = CopilotSettings.from(Map.of("KOORD4J_NAMESPACE", "ops"));

    assertThat(settings.nodeManagers())
        .isEqualTo(new NodeManagerPolicy(Set.of("ops"), Set.of(NodeManagerPolicy.DEFAULT_SERVICE_ACCOUNT)));
  }

  @Test
  void nodeManagerNamespacesAndAccountsAreCommaSeparatedAndMayNotBeEmpty() {
    CopilotSettings settings = CopilotSettings.from(Map.of(
        "KOORD4J_YARN_NODE_MANAGER_NAMESPACES", "hadoop, yarn-b",
        "KOORD4J_YARN_NODE_MANAGER_SERVICE_ACCOUNTS", "nm,"));

    assertThat(settings.nodeManagers()).isEqualTo(new NodeManagerPolicy(Set.of("hadoop", "yarn-b"), Set.of("nm")));
    assertThatThrownBy(() -> CopilotSettings.from(Map.of("KOORD4J_YARN_NODE_MANAGER_NAMESPACES", " , ")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("KOORD4J_YARN_NODE_MANAGER_NAMESPACES must name at least one, got ' , '");
  }

  @Test
  void metricsListenOnEveryAddressUnlessOneIsGiven() {
    assertThat(CopilotSettings.from(Map.of()).httpAddress()).isEmpty();
    assertThat(CopilotSettings.from(Map.of("KOORD4J_HTTP_ADDRESS", "10.1.2.3")).httpAddress()).contains("10.1.2.3");
  }

  @Test
  void aPeriodThatIsNotAPositiveNumberIsRejectedByName() {
    for (String bad : new String[] {"0", "-5", "fast"}) {
      assertThatThrownBy(() -> CopilotSettings.from(Map.of("KOORD4J_YARN_SYNC_PERIOD_MS", bad)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("KOORD4J_YARN_SYNC_PERIOD_MS must be a positive whole number");
    }
  }
}
