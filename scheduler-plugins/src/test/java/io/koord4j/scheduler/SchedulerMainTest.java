package io.koord4j.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SchedulerMainTest {

  @Test
  void readsTheExtenderPortAndNamesTheFlagOnBadInput() {
    assertThat(SchedulerMain.extenderPort(new String[] {"--extender-port", "10262"})).isEqualTo(10262);
    assertThat(SchedulerMain.extenderPort(new String[0])).isNull();
    assertThatThrownBy(() -> SchedulerMain.extenderPort(new String[] {"--extender-port", "ten"}))
        .hasMessage("--extender-port: \"ten\" is not a port number");
    assertThatThrownBy(() -> SchedulerMain.extenderPort(new String[] {"--extender-port"}))
        .hasMessage("--extender-port needs a port number");
    assertThatThrownBy(() -> SchedulerMain.extenderPort(new String[] {"--port", "1"}))
        .hasMessageStartingWith("unknown argument --port");
  }
}
