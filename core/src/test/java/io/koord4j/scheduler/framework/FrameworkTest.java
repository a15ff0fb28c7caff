package io.koord4j.scheduler.framework;

import static io.koord4j.scheduler.Fixtures.nodeInfo;
import static io.koord4j.scheduler.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.scheduler.plugins.DefaultBinder;
import io.koord4j.scheduler.plugins.NodeResourcesFit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FrameworkTest {

  private final ExecutorService pool = Executors.newFixedThreadPool(4);
  private final WaitingPods waiting = new WaitingPods(Executors.newSingleThreadScheduledExecutor());
  private final List<String> calls = new ArrayList<>();

  @AfterEach
  void stop() {
    pool.shutdownNow();
  }

  @Test
  void picksTheHighestWeightedScoreAmongFeasibleNodes() {
    ScorePlugin prefersB = scorer("PrefersB", node -> node.name().equals("b") ? 100 : 0);
    Framework framework =
        framework(List.of(new NodeResourcesFit(), prefersB), Map.of("PrefersB", 2));
    List<NodeInfo> nodes =
        List.of(nodeInfo("a", "8", "8Gi"), nodeInfo("b", "8", "8Gi"), nodeInfo("tiny", "1", "1Gi"));

    Framework.Placement placement =
        framework.selectNode(new CycleState(), pod("p", "2", "1Gi"), nodes);

    assertThat(placement.nodeName()).isEqualTo("b");
  }

  @Test
  void noFeasibleNodeRunsPostFilterAndExplains() {
    PostFilterPlugin recorder =
        new PostFilterPlugin() {
          @Override
          public String name() {
            return "Recorder";
          }

          @Override
          public void postFilter(CycleState state, Pod pod, FitError error) {
            calls.add(error.message());
          }
        };
    Framework framework = framework(List.of(new NodeResourcesFit(), recorder), Map.of());

    Framework.Placement placement =
        framework.selectNode(
            new CycleState(),
            pod("p", "4", "1Gi"),
            List.of(nodeInfo("a", "2", "8Gi"), nodeInfo("b", "2", "8Gi")));

    assertThat(placement.found()).isFalse();
    assertThat(placement.error().message())
        .isEqualTo("0/2 nodes are available: 2 Insufficient cpu.");
    assertThat(calls).containsExactly(placement.error().message());
  }

  @Test
  void filtersManyNodesInParallelAndStopsWhenEnoughFit() {
    AtomicInteger filtered = new AtomicInteger();
    FilterPlugin counting =
        new FilterPlugin() {
          @Override
          public String name() {
            return "Counting";
          }

          @Override
          public Status filter(CycleState state, Pod pod, NodeInfo node) {
            filtered.incrementAndGet();
            return Status.SUCCESS;
          }
        };
    Framework framework = framework(List.of(new NodeResourcesFit(), counting), Map.of());
    List<NodeInfo> nodes =
        IntStream.range(0, 1000).mapToObj(i -> nodeInfo("n" + i, "8", "8Gi")).toList();

    Framework.Placement placement = framework.selectNode(new CycleState(), pod("p", "1", "1Gi"), nodes);

    assertThat(placement.found()).isTrue();
    assertThat(Framework.enoughFeasibleNodes(1000)).isEqualTo(420);
    assertThat(Framework.enoughFeasibleNodes(50)).isEqualTo(50);
    // Stopped once 420 fit, give or take the chunks the four threads had already taken.
    assertThat(filtered.get()).isBetween(420, 420 + 4 * 16);
  }

  @Test
  void filterAllReportsEveryNodeFromEveryThread() {
    Framework framework = framework(List.of(new NodeResourcesFit()), Map.of());
    List<NodeInfo> nodes =
        IntStream.range(0, 500)
            .mapToObj(i -> nodeInfo("n" + i, i % 2 == 0 ? "8" : "1", "8Gi"))
            .toList();

    CycleState state = new CycleState();
    Pod pod = pod("p", "2", "1Gi");
    assertThat(framework.preFilter(state, pod).isSuccess()).isTrue();

    Map<String, Status> statuses = framework.filterAll(state, pod, nodes);

    assertThat(statuses).hasSize(500);
    assertThat(statuses.values().stream().filter(Status::isSuccess)).hasSize(250);
    assertThat(statuses.get("n1").message()).isEqualTo("Insufficient cpu");
  }

  @Test
  void scoresEveryFeasibleNodeAcrossThreads() {
    ScorePlugin byIndex = scorer("ByIndex", node -> Long.parseLong(node.name().substring(1)) % 101);
    Framework framework = framework(List.of(byIndex), Map.of());
    List<NodeInfo> nodes = IntStream.range(0, 300).mapToObj(i -> nodeInfo("n" + i, "8", "8Gi")).toList();

    long[] totals = framework.totalScores(new CycleState(), pod("p", "1", "1Gi"), nodes);

    assertThat(totals).hasSize(300);
    for (int i = 0; i < 300; i++) {
      assertThat(totals[i]).as("node n%d", i).isEqualTo(i % 101);
    }
  }

  @Test
  void aFailedReserveUnreservesEveryPluginInReverseOrder() {
    Framework framework =
        framework(List.of(reserver("A", true), reserver("B", false)), Map.of());

    Status status = framework.reserve(new CycleState(), pod("p", "1", "1Gi"), "n");

    assertThat(status.plugin()).isEqualTo("B");
    assertThat(calls).containsExactly("reserve A", "reserve B", "unreserve B", "unreserve A");
  }

  @Test
  void permitHoldsThePodUntilAllowedOrTimedOut() throws Exception {
    PermitPlugin waits =
        new PermitPlugin() {
          @Override
          public String name() {
            return "Waits";
          }

          @Override
          public Decision permit(CycleState state, Pod pod, String nodeName) {
            return Decision.waitFor(Duration.ofMillis(pod.getMetadata().getName().equals("slow") ? 50 : 60_000));
          }
        };
    Framework framework = framework(List.of(waits), Map.of());

    CompletableFuture<Status> allowed = framework.permit(new CycleState(), pod("p", "1", "1Gi"), "n");
    CompletableFuture<Status> timedOut =
        framework.permit(new CycleState(), pod("slow", "1", "1Gi"), "n");
    assertThat(waiting.all()).hasSize(2);
    waiting.all().stream()
        .filter(w -> w.pod().getMetadata().getName().equals("p"))
        .forEach(w -> w.allow("Waits"));

    assertThat(allowed.get()).isEqualTo(Status.SUCCESS);
    Status rejected = timedOut.get();
    assertThat(rejected.isRejection()).isTrue();
    assertThat(rejected.plugin()).isEqualTo("Waits");
    assertThat(waiting.all()).isEmpty();
  }

  private Framework framework(List<Plugin> plugins, Map<String, Integer> weights) {
    List<Plugin> all = new ArrayList<>(plugins);
    all.add(new DefaultBinder((pod, node) -> {}));
    return new Framework(all, weights, pool, 4, waiting);
  }

  private static ScorePlugin scorer(String name, java.util.function.ToLongFunction<NodeInfo> score) {
    return new ScorePlugin() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public long score(CycleState state, Pod pod, NodeInfo node) {
        return score.applyAsLong(node);
      }
    };
  }

  private ReservePlugin reserver(String name, boolean succeeds) {
    return new ReservePlugin() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Status reserve(CycleState state, Pod pod, String nodeName) {
        calls.add("reserve " + name);
        return succeeds ? Status.SUCCESS : Status.unschedulable("no");
      }

      @Override
      public void unreserve(CycleState state, Pod pod, String nodeName) {
        calls.add("unreserve " + name);
      }
    };
  }
}
