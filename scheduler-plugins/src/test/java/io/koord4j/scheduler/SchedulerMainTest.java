package io.koord4j.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.koord4j.scheduler.extender.ExtenderSettings;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SchedulerMainTest {

  @Test
  void readsTheExtenderPortAndNamesTheFlagOnBadInput() {
    assertThat(settings("--extender-port", "10262").port()).isEqualTo(10262);
    assertThat(settings()).isNull();
    assertThatThrownBy(() -> settings("--extender-port", "ten"))
        .hasMessage("--extender-port: \"ten\" is not a port number");
    assertThatThrownBy(() -> settings("--extender-port"))
        .hasMessage("--extender-port needs a port number");
    assertThatThrownBy(() -> settings("--port", "1"))
        .hasMessageStartingWith("unknown argument --port");
  }

  @Test
  void theExtenderListensOnLoopbackUnlessGivenAnAddressAndTls() {
    assertThat(settings("--extender-port", "1").address()).isEqualTo("127.0.0.1");
    assertThat(settings("--extender-port", "1").tls()).isFalse();
    assertThatThrownBy(() -> settings("--extender-port", "1", "--extender-address", "0.0.0.0"))
        .hasMessageContaining("--extender-tls-keystore and --extender-client-ca");

    ExtenderSettings exposed =
        settings("--extender-port", "1", "--extender-address", "0.0.0.0",
            "--extender-tls-keystore", "k.p12", "--extender-client-ca", "ca.pem");

    assertThat(exposed.tls()).isTrue();
    assertThat(exposed.keyStore()).isEqualTo(Path.of("k.p12"));
    assertThat(exposed.keyStorePassword()).isEqualTo("secret");
    assertThat(exposed.clientCa()).isEqualTo(Path.of("ca.pem"));
    assertThatThrownBy(() -> settings("--extender-address", "127.0.0.1"))
        .hasMessage("the --extender-* flags need --extender-port");
  }

  private static ExtenderSettings settings(String... args) {
    return SchedulerMain.extenderSettings(args, Map.of("EXTENDER_TLS_KEYSTORE_PASSWORD", "secret")::get);
  }
}
