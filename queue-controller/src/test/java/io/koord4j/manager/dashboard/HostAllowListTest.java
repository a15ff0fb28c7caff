package io.koord4j.manager.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class HostAllowListTest {
  private final HostAllowList hosts =
      HostAllowList.of(" koord4j-manager , koord4j-manager.koord4j-system.svc.cluster.local., ,dash.example.com:443");

  @Test
  void loopbackNamesAreAllowedWithOrWithoutAPort() {
    HostAllowList none = HostAllowList.of("");

    assertThat(none.allows(Optional.of("localhost"))).isTrue();
    assertThat(none.allows(Optional.of("127.0.0.1:8080"))).isTrue();
    assertThat(none.allows(Optional.of("[::1]:8080"))).isTrue();
    assertThat(none.allows(Optional.of("::1"))).isTrue();
    assertThat(none.allows(Optional.of("LOCALHOST.:8080"))).isTrue();
  }

  @Test
  void listedNamesAreAllowedIgnoringCaseAPortAndAFinalDot() {
    assertThat(hosts.allows(Optional.of("koord4j-manager:8080"))).isTrue();
    assertThat(hosts.allows(Optional.of("Koord4j-Manager.koord4j-system.svc.cluster.local"))).isTrue();
    assertThat(hosts.allows(Optional.of("dash.example.com"))).isTrue();
  }

  @Test
  void otherNamesAndAddressesAreRefused() {
    assertThat(hosts.allows(Optional.of("attacker.example.com"))).isFalse();
    assertThat(hosts.allows(Optional.of("koord4j-manager.attacker.example.com"))).isFalse();
    assertThat(hosts.allows(Optional.of("10.1.2.3:8080"))).isFalse();
    assertThat(hosts.allows(Optional.of("localhost.attacker.example.com"))).isFalse();
  }

  @Test
  void aMissingOrEmptyHostIsRefused() {
    assertThat(hosts.allows(Optional.empty())).isFalse();
    assertThat(hosts.allows(Optional.of(""))).isFalse();
    assertThat(hosts.allows(Optional.of(":8080"))).isFalse();
    assertThat(hosts.allows(Optional.of("[::1"))).isFalse();
  }
}
