package io.koord4j.manager.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.WellKnown;
import io.koord4j.api.kueue.AdmissionCheck;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitPhase;
import io.koord4j.testing.LocalCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code kubectl koord4j}, installed as kubectl installs a plugin (launcher script and jar on the
 * PATH), run as a process against the local cluster and the in-process manager, on jobs held back
 * for each reason ({@link BlockedJobs}).
 */
class KubectlKoord4jIT extends InProcessManagerBase {
  private static KubectlPlugin plugin;
  private static BlockedJobs scenario;
  private static TestCluster cluster;
  private static String quotaLeaf;
  private static String busyLeaf;

  @BeforeAll
  static void scenario() throws IOException, InterruptedException {
    plugin = KubectlPlugin.install("kubectl-koord4j-transcript.txt");
    scenario = BlockedJobs.create(client);
    cluster = scenario.cluster();
    quotaLeaf = scenario.quotaLeaf();
    busyLeaf = scenario.busyLeaf();
  }

  @AfterAll
  static void cleanUp() {
    if (scenario != null) {
      scenario.close();
    }
  }

  @Test
  void whyNamesTheQuotaShortageWithTheFiguresUpTheChain() {
    KubectlPlugin.Result why = plugin.run("why", "job/too-big", "-n", cluster.namespace);

    assertThat(why.exit()).as(why.err()).isZero();
    assertThat(why.out())
        .contains("Job " + cluster.namespace + "/too-big is waiting (queue " + quotaLeaf + ", phase Enqueued)")
        .contains("quota \"" + quotaLeaf + "\" has 2 of cpu available, 3 requested")
        .contains("position 1 of 1 in queue " + quotaLeaf + ", at the head")
        .contains("quota " + quotaLeaf + ": cpu: needs 3, runtime 2 (= min), used 0, max 2");
  }

  @Test
  void whyCountsTheHigherPriorityUnitsAhead() {
    KubectlPlugin.Result why = plugin.run("why", "jobs/low", "-n", cluster.namespace);

    assertThat(why.out()).as(why.err())
        .contains("position 3 of 3 in queue " + busyLeaf + ", behind 2 higher-priority units");
    assertThat(cluster.unit("low").getStatus().getPositionInQueue()).as("the manager's own figure").isEqualTo(3);
  }

  @Test
  void whyShowsThePendingAdmissionCheckAndTheGangsGpuShape() {
    KubectlPlugin.Result why = plugin.run("why", "job/trainer", "-n", cluster.namespace);

    assertThat(why.out()).as(why.err())
        .contains("phase " + QueueUnitPhase.RESERVED)
        .containsPattern("admission check " + scenario.check() + " Pending: waiting for room.*1 of 2 pods placed")
        .contains("gang of 2 × 8 GPUs (pod set main): only 1 node has 8 free GPUs in one NVLink partition,"
            + " room for 1 of 2 pods");
  }

  @Test
  void whyExplainsAJobThatIsNotQueuedAtAll() {
    KubectlPlugin.Result why = plugin.run("why", "job/plain", "-n", cluster.namespace);

    assertThat(why.exit()).isZero();
    assertThat(why.out()).contains("not queued: it names no queue")
        .contains("namespace " + cluster.namespace + " is not managed");
  }

  @Test
  void whyOfAMissingJobFailsWithNotFound() {
    KubectlPlugin.Result why = plugin.run("why", "job/nope", "-n", cluster.namespace);

    assertThat(why.exit()).isEqualTo(5);
    assertThat(why.err()).contains("Job " + cluster.namespace + "/nope not found");
  }

  @Test
  void jobsListsTheWaitingJobsInQueueOrderWithTheirReasons() {
    KubectlPlugin.Result jobs = plugin.run("jobs", "-n", cluster.namespace, "--queue", busyLeaf);

    assertThat(jobs.exit()).as(jobs.err()).isZero();
    List<String> lines = jobs.out().lines().toList();
    assertThat(lines.get(0)).startsWith("NAMESPACE").contains("POSITION", "PHASE", "AGE", "REASON");
    List<String> names = lines.subList(1, lines.size()).stream().map(line -> line.split("\\s+")[1]).toList();
    // high-1 and high-2 have one priority and may share a creation second: the manager orders them.
    assertThat(names.subList(0, 2)).containsExactlyInAnyOrder("high-1", "high-2");
    assertThat(names.subList(2, 4)).containsExactly("low", "holder");
    assertThat(lines.get(3)).contains(" 3 ").contains("Enqueued").contains("quota \"" + busyLeaf + "\" has 0 of cpu");
  }

  @Test
  void jobsAsJsonCarriesThePositions() throws IOException {
    KubectlPlugin.Result jobs = plugin.run("jobs", "-n", cluster.namespace, "-o", "json");

    JsonNode rows = new ObjectMapper().readTree(jobs.out());
    List<String> positions = new ArrayList<>();
    rows.forEach(row -> positions.add(row.get("name").asText() + "=" + row.path("position").asText("-")));
    assertThat(positions).contains("too-big=1", "low=3").containsAnyOf("high-1=1", "high-2=1")
        .containsAnyOf("high-1=2", "high-2=2");
  }

  @Test
  void queuesCountsPendingAndRunningUnits() {
    KubectlPlugin.Result queues = plugin.run("queues");

    assertThat(queues.exit()).as(queues.err()).isZero();
    assertThat(queues.out().lines().filter(line -> line.startsWith(busyLeaf + " ")).findFirst().orElseThrow())
        .matches(busyLeaf + "\\s+Priority\\s+0\\s+3\\s+\\d\\s+\\d\\s+" + cluster.namespace + "/low \\(\\d+[sm]\\)");
  }

  @Test
  void quotaTreeShowsTheChildUnderItsParentWithUsageBars() {
    KubectlPlugin.Result tree = plugin.run("quota", "tree");

    assertThat(tree.exit()).as(tree.err()).isZero();
    String out = tree.out();
    assertThat(out.indexOf("\n" + cluster.prefix + "-research ")).isLessThan(out.indexOf("└─ " + quotaLeaf));
    assertThat(out.lines().filter(line -> line.startsWith(busyLeaf + " ")).findFirst().orElseThrow())
        .contains("[####################] 100%");
  }

  @Test
  void topGpusShowsTheHolderOfEachGpuAndTheFreePartitions() {
    KubectlPlugin.Result top = plugin.run("top", "gpus");

    assertThat(top.exit()).as(top.err()).isZero();
    String node = top.out().substring(top.out().indexOf(scenario.halfTakenNode()));
    assertThat(node).startsWith(scenario.halfTakenNode() + " (4/8 free)").contains(cluster.namespace + "/gpu-holder")
        .contains("[4,5,6,7] [4,5] [6,7]");
  }
}
