package io.koord4j.manager;

import static org.assertj.core.api.Assertions.assertThat;

import io.koord4j.probes.ProbeServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ManagerSettingsTest {

  @Test
  void theLeaseTimingsDefaultToKubernetesOwnAndScaleWithTheLease() {
    ManagerSettings defaults = ManagerSettings.from(Map.of(), new String[0]);
    ManagerSettings fast =
        ManagerSettings.from(Map.of("KOORD4J_LEASE_DURATION_SECONDS", "6"), new String[0]);

    assertThat(defaults.leaseDuration()).isEqualTo(Duration.ofSeconds(15));
    assertThat(defaults.renewDeadline()).isEqualTo(Duration.ofSeconds(10));
    assertThat(defaults.retryPeriod()).isEqualTo(Duration.ofSeconds(2));
    assertThat(fast.renewDeadline()).isEqualTo(Duration.ofSeconds(4));
    assertThat(fast.retryPeriod()).isEqualTo(Duration.ofMillis(800));
  }

  @Test
  void koord4jOwnQueuesRunUnlessKueueAdmissionCheckModeIsAskedFor() {
    assertThat(ManagerSettings.from(Map.of(), new String[0]).kueueAdmissionCheck()).isFalse();
    assertThat(ManagerSettings.from(Map.of(), new String[] {"--kueue-admission-check"})
            .kueueAdmissionCheck())
        .isTrue();
    assertThat(ManagerSettings.from(Map.of("KOORD4J_KUEUE_ADMISSION_CHECK", "true"), new String[0])
            .kueueAdmissionCheck())
        .isTrue();
  }

  @Test
  void aReplicaSharesItsPortsAndMarksItsReadinessInAFileOnlyWhenAsked() {
    ManagerSettings defaults = ManagerSettings.from(Map.of(), new String[0]);
    ManagerSettings hostNetwork =
        ManagerSettings.from(
            Map.of("KOORD4J_SHARED_PORTS", "true", "KOORD4J_READY_FILE", "/tmp/ready"), new String[0]);

    assertThat(defaults.sharedPorts()).isFalse();
    assertThat(defaults.readyFile()).isEmpty();
    assertThat(hostNetwork.sharedPorts()).isTrue();
    assertThat(hostNetwork.readyFile()).contains(Path.of("/tmp/ready"));
  }

  @Test
  void theHttpPortListensOnEveryAddressUnlessOneIsGiven() {
    ManagerSettings defaults = ManagerSettings.from(Map.of(), new String[0]);
    ManagerSettings podIp = ManagerSettings.from(
        Map.of("KOORD4J_HTTP_ADDRESS", " 10.1.2.3 ", "KOORD4J_HTTP_PORT", "9090"), new String[0]);

    assertThat(defaults.httpListen()).isEqualTo(ProbeServer.Listen.onPort(8080));
    assertThat(podIp.httpListen()).isEqualTo(new ProbeServer.Listen(Optional.of("10.1.2.3"), 9090, false));
    assertThat(ManagerSettings.from(Map.of("KOORD4J_HTTP_ADDRESS", ""), new String[0]).httpAddress()).isEmpty();
  }

  @Test
  void theDashboardIsOffUnlessAskedFor() {
    assertThat(ManagerSettings.from(Map.of(), new String[0]).dashboard()).isFalse();
    assertThat(ManagerSettings.from(Map.of(), new String[] {"--dashboard"}).dashboard()).isTrue();
    assertThat(ManagerSettings.from(Map.of("KOORD4J_DASHBOARD", "true"), new String[0]).dashboard()).isTrue();
  }
}
