package io.koord4j.manager.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.koord4j.probes.ProbeServer;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The paths the dashboard answers; what it reads is DashboardBrowserIT's, on the local cluster. */
class DashboardTest {
  private final Dashboard dashboard =
      new Dashboard(null, Clock.systemUTC(), HostAllowList.of("koord4j-manager.koord4j-system.svc"));

  @Test
  void thePageIsServedAtUiWithAndWithoutTheTrailingSlash() {
    for (String path : new String[] {"/ui", "/ui/"}) {
      ProbeServer.Reply reply = dashboard.reply(get(path, "127.0.0.1:8080"));
      assertThat(reply.code()).isEqualTo(200);
      assertThat(reply.contentType()).startsWith("text/html");
      assertThat(reply.body()).contains("<h2>Quota tree</h2>");
    }
  }

  @Test
  void otherPathsUnderUiAreNotFound() {
    assertThat(dashboard.reply(get("/ui/secrets", "localhost")).code()).isEqualTo(404);
    assertThat(dashboard.reply(get("/uix", "localhost")).code()).isEqualTo(404);
  }

  @Test
  void aRequestForAServiceNameItKnowsIsAnswered() {
    assertThat(dashboard.reply(get("/ui", "koord4j-manager.koord4j-system.svc:8080")).code()).isEqualTo(200);
  }

  @Test
  void aRequestForAnotherHostIsRefusedNamingTheSettingThatAllowsIt() {
    ProbeServer.Reply reply = dashboard.reply(get("/ui", "rebound.example.com"));

    assertThat(reply.code()).isEqualTo(421);
    assertThat(reply.body()).contains("\"rebound.example.com\"").contains("KOORD4J_DASHBOARD_ALLOWED_HOSTS");
  }

  @Test
  void aRequestWithoutAHostIsRefused() {
    ProbeServer.Reply reply = dashboard.reply(new ProbeServer.Request("/ui", Map.of(), Map.of()));

    assertThat(reply.code()).isEqualTo(421);
    assertThat(reply.body()).contains("Host header");
  }

  private static ProbeServer.Request get(String path, String host) {
    return new ProbeServer.Request(path, Map.of(), Map.of("host", host));
  }
}
