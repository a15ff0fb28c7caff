package io.koord4j.koordlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.koord4j.koordlet.cgroup.CgroupDriver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KoordletSettingsTest {
  @Test
  void flagsOverrideTheEnvironmentWhichOverridesDefaults() {
    KoordletSettings settings = KoordletSettings.from(
        Map.of("NODE_NAME", "from-env", "KOORDLET_CGROUP_ROOT", "/host/sys/fs/cgroup"),
        new String[] {"--node-name=node-a", "--cgroup-driver", "systemd", "--collect-interval-seconds=2"});

    assertThat(settings.nodeName()).isEqualTo("node-a");
    assertThat(settings.cgroupRoot()).isEqualTo(Path.of("/host/sys/fs/cgroup"));
    assertThat(settings.procRoot()).isEqualTo(Path.of("/proc"));
    assertThat(settings.cgroupDriver()).isEqualTo(CgroupDriver.SYSTEMD);
    assertThat(settings.kubepods()).isEqualTo("kubepods.slice");
    assertThat(settings.collectInterval()).isEqualTo(Duration.ofSeconds(2));
    assertThat(settings.httpAddress()).isEmpty();
    assertThat(settings.httpPort()).isEqualTo(9316);
    assertThat(settings.gpuInventory()).isEqualTo("none");
  }

  @Test
  void theHttpPortListensOnTheAddressTheFlagOrTheEnvironmentGives() {
    assertThat(KoordletSettings.from(Map.of("NODE_NAME", "n", "KOORDLET_HTTP_ADDRESS", "10.0.0.7"), new String[0])
            .httpAddress())
        .contains("10.0.0.7");
    assertThat(KoordletSettings.from(Map.of("NODE_NAME", "n"), new String[] {"--http-address=127.0.0.1"})
            .httpAddress())
        .contains("127.0.0.1");
  }

  @Test
  void badInputNamesTheFlagAndTheRule() {
    assertThatThrownBy(() -> KoordletSettings.from(Map.of(), new String[0]))
        .hasMessageContaining("--node-name (or NODE_NAME) is required");
    assertThatThrownBy(() -> KoordletSettings.from(Map.of("NODE_NAME", "n"), new String[] {"--collect-interval-seconds=0"}))
        .hasMessageContaining("--collect-interval-seconds must be a whole number of at least 1");
    assertThatThrownBy(() -> KoordletSettings.from(Map.of("NODE_NAME", "n"), new String[] {"stray"}))
        .hasMessageContaining("unexpected argument \"stray\"");
    assertThatThrownBy(() -> Koordlet.inventory("dcgm"))
        .hasMessageContaining("--gpu-inventory must be none, nvidia-smi or file:<dir>");
  }
}
