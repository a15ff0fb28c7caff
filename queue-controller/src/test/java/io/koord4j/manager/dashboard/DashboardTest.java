package io.koord4j.manager.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.koord4j.probes.ProbeServer;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/** The paths the dashboard answers; what it reads is DashboardBrowserIT's, on the local cluster. */
class DashboardTest {
  private final Dashboard dashboard = new Dashboard(null, Clock.systemUTC());

  @Test
  void thePageIsServedAtUiWithAndWithoutTheTrailingSlash() {
    for (String path : new String[] {"/ui", "/ui/"}) {
      ProbeServer.Reply reply = dashboard.reply(path);
      assertThat(reply.code()).isEqualTo(200);
      assertThat(reply.contentType()).startsWith("text/html");
      assertThat(reply.body()).contains("<h2>Quota tree</h2>").contains("state.json");
    }
  }

  @Test
  void otherPathsUnderUiAreNotFound() {
    assertThat(dashboard.reply("/ui/secrets").code()).isEqualTo(404);
    assertThat(dashboard.reply("/uix").code()).isEqualTo(404);
  }
}
