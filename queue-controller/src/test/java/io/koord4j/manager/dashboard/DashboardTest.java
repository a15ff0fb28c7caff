package io.koord4j.manager.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.probes.ProbeServer;
import io.koord4j.visibility.Fixtures;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** What the dashboard answers; what it reads from a real cluster is DashboardBrowserIT's. */
class DashboardTest {
  private static final int QUOTAS = 120;

  private final AtomicInteger reads = new AtomicInteger();
  private final Dashboard dashboard = new Dashboard(
      () -> {
        reads.incrementAndGet();
        return quotas(QUOTAS);
      },
      Clock.systemUTC(),
      HostAllowList.of("koord4j-manager.koord4j-system.svc"),
      Optional.empty());

  @Test
  void thePageIsServedAtUiWithAndWithoutTheTrailingSlash() {
    for (String path : new String[] {"/ui", "/ui/"}) {
      ProbeServer.Reply reply = dashboard.reply(get(path, "127.0.0.1:8080"));
      assertThat(reply.code()).isEqualTo(200);
      assertThat(reply.contentType()).startsWith("text/html");
      assertThat(reply.body()).contains("<h2>Quota tree</h2>").contains("quotas");
    }
    assertThat(reads).as("the page alone reads nothing").hasValue(0);
  }

  @Test
  void otherPathsUnderUiAreNotFound() {
    assertThat(dashboard.reply(get("/ui/secrets", "localhost")).code()).isEqualTo(404);
    assertThat(dashboard.reply(get("/ui/state.json", "localhost")).code()).isEqualTo(404);
    assertThat(dashboard.reply(get("/uix", "localhost")).code()).isEqualTo(404);
  }

  @Test
  void aRequestForAServiceNameItKnowsIsAnswered() {
    assertThat(dashboard.reply(get("/ui", "koord4j-manager.koord4j-system.svc:8080")).code()).isEqualTo(200);
  }

  @Test
  void aRequestForAnotherHostIsRefusedNamingTheSettingThatAllowsIt() {
    ProbeServer.Reply reply = dashboard.reply(get("/ui/quotas.json", "rebound.example.com"));

    assertThat(reply.code()).isEqualTo(421);
    assertThat(reply.body()).contains("\"rebound.example.com\"").contains("KOORD4J_DASHBOARD_ALLOWED_HOSTS");
    assertThat(reads).hasValue(0);
  }

  @Test
  void aRequestWithoutAHostIsRefused() {
    ProbeServer.Reply reply = dashboard.reply(new ProbeServer.Request("/ui", Map.of(), Map.of()));

    assertThat(reply.code()).isEqualTo(421);
    assertThat(reply.body()).contains("Host header");
  }

  @Test
  void aListIsServedPageByPageUntilTheLastPageHasNoToken() {
    ProbeServer.Reply first = answered(get("/ui/quotas.json", "localhost"));
    assertThat(first.contentType()).startsWith("application/json");
    assertThat(first.body())
        .contains("\"continue\":\"" + ListPage.DEFAULT_LIMIT + "\"")
        .contains("\"total\":" + QUOTAS)
        .contains("\"name\":\"quota-000\"")
        .doesNotContain("\"name\":\"quota-050\"");

    ProbeServer.Reply last = answered(get("/ui/quotas.json", "localhost", "limit", "100", "continue", "100"));
    assertThat(last.body())
        .doesNotContain("\"continue\"")
        .contains("\"name\":\"quota-119\"")
        .doesNotContain("\"name\":\"quota-099\"");
  }

  @Test
  void aBadPageParameterIsRefusedNamingIt() {
    answered(get("/ui/quotas.json", "localhost"));

    ProbeServer.Reply reply = dashboard.reply(get("/ui/queues.json", "localhost", "limit", "all"));

    assertThat(reply.code()).isEqualTo(400);
    assertThat(reply.body()).contains("limit must be a whole number");
  }

  @Test
  void untilTheFirstReadIsDoneTheListsSayThePageRetries() {
    Dashboard slow = new Dashboard(
        () -> {
          throw new IllegalStateException("never read");
        },
        Clock.systemUTC(), HostAllowList.of(""), Optional.empty());

    ProbeServer.Reply reply = slow.reply(get("/ui/gpus.json", "localhost"));

    assertThat(reply.code()).isEqualTo(503);
    assertThat(reply.body()).contains("retries by itself");
  }

  @Test
  void withLoginOnTheListsAnswerOnlyATokenTheApiServerAcceptsForAUserWithTheRight() {
    Dashboard login = new Dashboard(() -> quotas(1), Clock.systemUTC(), HostAllowList.of(""),
        Optional.of(new TokenAccess(new FakeReviews(), Clock.systemUTC())));

    ProbeServer.Reply none = login.reply(get("/ui/quotas.json", "localhost"));
    assertThat(none.code()).isEqualTo(401);
    assertThat(none.headers()).containsKey("WWW-Authenticate");
    assertThat(login.reply(withToken("made-up")).code()).isEqualTo(401);
    ProbeServer.Reply forbidden = login.reply(withToken(FakeReviews.WITHOUT_RIGHTS));
    assertThat(forbidden.code()).isEqualTo(403);
    assertThat(forbidden.body()).contains("may not list queueunits.scheduling.x-k8s.io");
    assertThat(answered(login, withToken(FakeReviews.VIEWER)).code()).isEqualTo(200);
    assertThat(login.reply(get("/ui", "localhost")).code()).as("the page holds no data").isEqualTo(200);
  }

  @Test
  void withLoginOnAnApiServerThatCannotReviewTheTokenGets503() {
    TokenAccess.Reviews down = new FakeReviews() {
      @Override
      public Optional<UserInfo> authenticate(String token) {
        throw new KubernetesClientException("connection refused");
      }
    };
    Dashboard login = new Dashboard(() -> quotas(1), Clock.systemUTC(), HostAllowList.of(""),
        Optional.of(new TokenAccess(down, Clock.systemUTC())));

    ProbeServer.Reply reply = login.reply(withToken(FakeReviews.VIEWER));

    assertThat(reply.code()).isEqualTo(503);
    assertThat(reply.body()).contains("connection refused");
  }

  /** The reply once the dashboard has read the cluster: the first request only starts the read. */
  private ProbeServer.Reply answered(ProbeServer.Request request) {
    return answered(dashboard, request);
  }

  private static ProbeServer.Reply answered(Dashboard dashboard, ProbeServer.Request request) {
    return await().atMost(Duration.ofSeconds(10)).until(() -> dashboard.reply(request), reply -> reply.code() != 503);
  }

  private static ProbeServer.Request get(String path, String host, String... parameters) {
    Map<String, String> query = new HashMap<>();
    for (int i = 0; i < parameters.length; i += 2) {
      query.put(parameters[i], parameters[i + 1]);
    }
    return new ProbeServer.Request(path, query, Map.of("host", host));
  }

  private static ProbeServer.Request withToken(String token) {
    return new ProbeServer.Request("/ui/quotas.json", Map.of(), Map.of("Host", "localhost", "Authorization", "Bearer " + token));
  }

  private static DashboardState.Inputs quotas(int count) {
    List<ElasticQuota> quotas = IntStream.range(0, count)
        .mapToObj(i -> Fixtures.quota(String.format("quota-%03d", i), null, false, "1", "2", "1", "0"))
        .toList();
    return new DashboardState.Inputs(List.of(), List.of(), quotas, List.of(), List.of(), List.of());
  }
}
