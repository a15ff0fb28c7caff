package io.koord4j.e2e.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitPhase;
import io.koord4j.manager.it.InProcessManager;
import io.koord4j.testing.LocalCluster;
import io.koord4j.testing.Soak;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code helm upgrade} to a new image tag while jobs are being submitted, on the local cluster's
 * real node: the manager's new pod starts next to the old one on the same host ports, takes the
 * webhook and the Lease over, and the old one stops. Counted: jobs whose creation failed, webhook
 * calls the API server saw fail or rejected (its own metrics), jobs and units admitted more than
 * once, and jobs that never ran.
 */
class HelmUpgradeIT {
  private static final Logger LOG = LoggerFactory.getLogger(HelmUpgradeIT.class);
  private static final String RELEASE = "koord4j";
  private static final String NAMESPACE = "koord4j-system";
  private static final String NODE_PREFIX = "helm-upgrade";
  private static final int NODES = 2;
  private static final String OLD_TAG = "helm-upgrade-a";
  private static final String NEW_TAG = "helm-upgrade-b";
  /** Enough for jobs before, during and after the rollout; 200 under -Psoak. */
  private static final int JOBS = Soak.size(60, 200);
  /** Jobs created before the upgrade starts; the others are created while it rolls and after. */
  private static final int BEFORE_UPGRADE = 20;
  /** The last jobs wait for the rollout to end, so that some are created after the handover. */
  private static final int AFTER_ROLLOUT = 20;
  private static final Duration SUBMIT_INTERVAL = Duration.ofMillis(400);
  /** Webhooks of koord4j, by the name the API server's metrics give them. */
  private static final Pattern KOORD4J_WEBHOOK = Pattern.compile("name=\"[^\"]*koord4j\\.io\"");
  private static final Pattern WEBHOOK_SERIES =
      Pattern.compile("^(apiserver_admission_webhook_(?:request_total|rejection_count|fail_open_count))\\{(.*)} (\\S+)$");

  private static KubernetesClient client;
  private static String jobs;

  @BeforeAll
  static void install() {
    // The installed manager must be the only one admitting: stop the one earlier tests ran here.
    InProcessManager.stop();
    client = LocalCluster.client();
    LocalCluster.script("node", "up");
    // One build under two tags: the upgrade changes the pod template, as a release does.
    LocalCluster.script("images", "load", "--tag", OLD_TAG);
    LocalCluster.script("images", "load", "--tag", NEW_TAG);
    LocalCluster.script("kueue", "crds");
    LocalCluster.script("nodes", "--count", String.valueOf(NODES), "--cpu", "32", "--memory", "128Gi", "--prefix", NODE_PREFIX);
    ClusterTools.helm("uninstall", RELEASE, "-n", NAMESPACE, "--ignore-not-found", "--wait");
    ClusterTools.Result install = helm("install", OLD_TAG, "--create-namespace");
    assertThat(install.succeeded()).as(install.describe()).isTrue();
    await("the manager runs").atMost(Duration.ofMinutes(10)).until(() -> readyManagers().size() == 1);
    ClusterTools.Result samples =
        ClusterTools.kubectl(null, "apply", "--server-side", "-f", sample("quota"), "-f", sample("queues"));
    assertThat(samples.succeeded()).as(samples.describe()).isTrue();
    jobs = LocalCluster.createNamespace(client, "helm-upgrade");
    ClusterTools.Result bound = ClusterTools.bindSampleQuotas(jobs, "research-nlp");
    assertThat(bound.succeeded()).as(bound.describe()).isTrue();
  }

  @AfterAll
  static void uninstall() {
    if (client == null) {
      return;
    }
    ClusterTools.helm("uninstall", RELEASE, "-n", NAMESPACE, "--ignore-not-found", "--wait");
    ClusterTools.kubectl(null, "delete", "--ignore-not-found", "-f", sample("queues"), "-f", sample("quota"));
    if (jobs != null) {
      client.namespaces().withName(jobs).delete();
    }
    for (int i = 0; i < NODES; i++) {
      client.nodes().withName(NODE_PREFIX + "-" + i).delete();
    }
    client.close();
  }

  @Test
  void upgradingWhileJobsAreSubmittedLosesNoJobAdmitsNoneTwiceAndFailsNoWebhookCall() throws Exception {
    Map<String, Double> webhooksBefore = webhookSeries();
    String oldPod = readyManagers().get(0).getMetadata().getName();
    String oldLeader = leaseHolder();
    Admissions admissions = new Admissions();
    List<String> createFailures = new CopyOnWriteArrayList<>();
    Rollout rollout = new Rollout(oldPod);

    try (Watch jobWatch = client.batch().v1().jobs().inNamespace(jobs).watch(admissions.jobs());
        Watch unitWatch = client.resources(QueueUnit.class).inNamespace(jobs).watch(admissions.units())) {
      for (int i = 0; i < JOBS; i++) {
        if (i == BEFORE_UPGRADE) {
          rollout.start();
        }
        if (i == JOBS - AFTER_ROLLOUT) {
          await("the rollout ends while jobs are submitted").atMost(Duration.ofMinutes(5)).until(rollout::ended);
        }
        rollout.observe(i);
        try {
          client.batch().v1().jobs().inNamespace(jobs).resource(job(i)).create();
        } catch (KubernetesClientException e) {
          createFailures.add(jobName(i) + ": " + e.getMessage());
        }
        Thread.sleep(SUBMIT_INTERVAL.toMillis());
      }

      await("every job runs to completion").atMost(Duration.ofMinutes(8)).pollInterval(Duration.ofSeconds(5))
          .until(() -> completedJobs() == JOBS - createFailures.size());
    }
    Map<String, Double> grownSeries = difference(webhookSeries(), webhooksBefore);
    Map<String, Double> webhookCalls = perMetric(grownSeries);
    LOG.info("jobs created: {}, create failures: {}", JOBS - createFailures.size(), createFailures.size());
    LOG.info("jobs created before the upgrade / during the rollout / after it: {}", rollout.submissions());
    LOG.info("manager pods running at once: up to {}", rollout.mostRunning());
    LOG.info("API server's webhook figures for koord4j's webhooks during the test: {}", webhookCalls);
    grownSeries.forEach((series, delta) -> LOG.info("  {} +{}", series, delta));
    LOG.info("unsuspensions per job: {}; admissions per unit: {}", admissions.unsuspensionCounts(), admissions.admissionCounts());

    assertThat(createFailures).as("jobs the API server refused").isEmpty();
    assertThat(webhookCalls.getOrDefault("apiserver_admission_webhook_request_total", 0.0))
        .as("webhook calls during the test").isGreaterThanOrEqualTo(JOBS);
    assertThat(webhookCalls)
        .as("webhook calls that failed, failed open or rejected the object, in series %s", grownSeries)
        .doesNotContainKeys("failed", "apiserver_admission_webhook_rejection_count", "apiserver_admission_webhook_fail_open_count");
    assertThat(rollout.mostRunning()).as("the new manager pod started next to the old one").isEqualTo(2);
    assertThat(rollout.submissions()).allSatisfy(count -> assertThat(count).isPositive());
    assertThat(leaseHolder()).as("the new pod leads").isNotEqualTo(oldLeader);
    assertThat(admissions.heldJobs()).as("jobs the webhook held (created suspended)").hasSize(JOBS);
    assertThat(admissions.unsuspensionCounts()).as("times each job was started").hasSize(JOBS).allSatisfy((job, count) -> assertThat(count).as(job).isEqualTo(1));
    assertThat(admissions.admissionCounts()).as("times each QueueUnit was admitted").hasSize(JOBS).allSatisfy((unit, count) -> assertThat(count).as(unit).isEqualTo(1));
  }

  /** Starts the upgrade and follows the manager's pods until the old one is gone. */
  private static final class Rollout {
    private final String oldPod;
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean ended = new AtomicBoolean();
    private final AtomicInteger mostRunning = new AtomicInteger();
    /** Jobs created before the upgrade, while it rolled, after it. */
    private final int[] submissions = new int[3];
    private volatile Instant endedAt;
    private volatile ClusterTools.Result upgrade;

    Rollout(String oldPod) {
      this.oldPod = oldPod;
    }

    void start() {
      started.set(true);
      Thread follower = new Thread(() -> {
        upgrade = helm("upgrade", NEW_TAG);
        LOG.info("helm upgrade exited {}", upgrade.exitCode());
        while (!ended.get()) {
          List<Pod> pods = managers();
          mostRunning.accumulateAndGet((int) pods.stream().filter(p -> "Running".equals(p.getStatus().getPhase())).count(), Math::max);
          boolean oldGone = pods.stream().noneMatch(p -> p.getMetadata().getName().equals(oldPod));
          boolean newReady = readyManagers().stream().anyMatch(p -> p.getSpec().getContainers().get(0).getImage().endsWith(":" + NEW_TAG));
          if (oldGone && newReady) {
            endedAt = Instant.now();
            ended.set(true);
            LOG.info("rollout ended at {}", endedAt);
          }
          sleep(Duration.ofMillis(250));
        }
      }, "helm-upgrade");
      follower.setDaemon(true);
      follower.start();
    }

    boolean ended() {
      assertThat(upgrade == null || upgrade.succeeded()).as(() -> upgrade.describe()).isTrue();
      return ended.get();
    }

    void observe(int job) {
      submissions[!started.get() ? 0 : ended.get() ? 2 : 1]++;
    }

    int mostRunning() {
      return mostRunning.get();
    }

    List<Integer> submissions() {
      return List.of(submissions[0], submissions[1], submissions[2]);
    }
  }

  /** What the watches saw: per job its start (suspend true to false), per unit its admission. */
  private static final class Admissions {
    private final Map<String, Boolean> suspended = new ConcurrentHashMap<>();
    private final Set<String> held = ConcurrentHashMap.newKeySet();
    private final Map<String, Integer> unsuspensions = new ConcurrentHashMap<>();
    private final Map<String, String> phases = new ConcurrentHashMap<>();
    private final Map<String, Integer> admissions = new ConcurrentHashMap<>();

    Watcher<Job> jobs() {
      return watcher((action, job) -> {
        String name = job.getMetadata().getName();
        boolean now = Boolean.TRUE.equals(job.getSpec().getSuspend());
        Boolean before = suspended.put(name, now);
        if (before == null && now) {
          held.add(name);
        }
        if (Boolean.TRUE.equals(before) && !now) {
          unsuspensions.merge(name, 1, Integer::sum);
        }
      });
    }

    Watcher<QueueUnit> units() {
      return watcher((action, unit) -> {
        String phase = unit.getStatus() == null ? null : unit.getStatus().getPhase();
        String before = phases.put(unit.getMetadata().getName(), String.valueOf(phase));
        if (admitted(phase) && !admitted(before) && !QueueUnitPhase.SUCCEED.equals(before)) {
          admissions.merge(unit.getMetadata().getName(), 1, Integer::sum);
        }
      });
    }

    Set<String> heldJobs() {
      return held;
    }

    Map<String, Integer> unsuspensionCounts() {
      return Map.copyOf(unsuspensions);
    }

    Map<String, Integer> admissionCounts() {
      return Map.copyOf(admissions);
    }

    private static boolean admitted(String phase) {
      return QueueUnitPhase.DEQUEUED.equals(phase) || QueueUnitPhase.RUNNING.equals(phase);
    }

    private static <T> Watcher<T> watcher(java.util.function.BiConsumer<Watcher.Action, T> onEvent) {
      return new Watcher<>() {
        @Override
        public void eventReceived(Action action, T resource) {
          if (action != Action.DELETED && action != Action.BOOKMARK) {
            onEvent.accept(action, resource);
          }
        }

        @Override
        public void onClose(WatcherException cause) {
          LOG.warn("watch closed", cause);
        }
      };
    }
  }

  /** One 4-CPU job in the samples' research-nlp queue; its pod runs 2 s on a KWOK node. */
  private static Job job(int i) {
    return new JobBuilder()
        .withNewMetadata().withName(jobName(i)).withLabels(Map.of("kueue.x-k8s.io/queue-name", "research-nlp")).endMetadata()
        .withNewSpec().withParallelism(1).withCompletions(1)
        .withNewTemplate()
        .withNewMetadata().withAnnotations(Map.of("pod-complete.stage.kwok.x-k8s.io/delay", "2s")).endMetadata()
        .withNewSpec().withRestartPolicy("Never")
        .addNewContainer().withName("work").withImage("busybox")
        .withNewResources().addToRequests("cpu", new Quantity("4")).addToRequests("memory", new Quantity("1Gi")).endResources()
        .endContainer().endSpec().endTemplate().endSpec()
        .build();
  }

  private static String jobName(int i) {
    return "upgrade-%03d".formatted(i);
  }

  private static long completedJobs() {
    return client.batch().v1().jobs().inNamespace(jobs).list().getItems().stream()
        .filter(job -> job.getStatus() != null && Integer.valueOf(1).equals(job.getStatus().getSucceeded()))
        .count();
  }

  private static ClusterTools.Result helm(String verb, String tag, String... extra) {
    List<String> args = new java.util.ArrayList<>(List.of(verb, RELEASE, ClusterTools.chart(), "-n", NAMESPACE,
        "-f", ClusterTools.localClusterValues(), "--set", "image.tag=" + tag));
    args.addAll(List.of(extra));
    return ClusterTools.helm(args.toArray(String[]::new));
  }

  private static List<Pod> managers() {
    return client.pods().inNamespace(NAMESPACE)
        .withLabel("app.kubernetes.io/instance", RELEASE).withLabel("app.kubernetes.io/component", "manager")
        .list().getItems();
  }

  private static List<Pod> readyManagers() {
    return managers().stream()
        .filter(pod -> pod.getMetadata().getDeletionTimestamp() == null)
        .filter(pod -> pod.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())))
        .toList();
  }

  private static String leaseHolder() {
    Lease lease = client.resources(Lease.class).inNamespace(NAMESPACE).withName(RELEASE + "-manager").get();
    return lease == null ? null : lease.getSpec().getHolderIdentity();
  }

  /** The API server's counters of koord4j's webhooks, per series ({@code metric{labels}}). */
  private static Map<String, Double> webhookSeries() {
    ClusterTools.Result metrics = ClusterTools.kubectl(null, "get", "--raw", "/metrics");
    assertThat(metrics.succeeded()).as(metrics.describe()).isTrue();
    Map<String, Double> series = new java.util.TreeMap<>();
    metrics.stdout().lines().map(WEBHOOK_SERIES::matcher)
        .filter(m -> m.matches() && KOORD4J_WEBHOOK.matcher(m.group(2)).find())
        .forEach(m -> series.put(m.group(1) + "{" + m.group(2) + "}", Double.parseDouble(m.group(3))));
    return series;
  }

  /**
   * Summed per metric: all calls, and those that failed, failed open or rejected the object. A
   * call whose HTTP code was not 200 counts under "failed".
   */
  private static Map<String, Double> perMetric(Map<String, Double> series) {
    Map<String, Double> sums = new java.util.TreeMap<>();
    series.forEach((name, value) -> {
      String metric = name.substring(0, name.indexOf('{'));
      sums.merge(metric, value, Double::sum);
      if (metric.endsWith("request_total") && !name.contains("code=\"200\"")) {
        sums.merge("failed", value, Double::sum);
      }
    });
    return sums;
  }

  /** Per series, what grew between two readings; series that did not grow are left out. */
  private static Map<String, Double> difference(Map<String, Double> after, Map<String, Double> before) {
    Map<String, Double> grown = new java.util.TreeMap<>();
    after.forEach((series, value) -> {
      double delta = value - before.getOrDefault(series, 0.0);
      if (delta > 0) {
        grown.put(series, delta);
      }
    });
    return grown;
  }

  private static String sample(String dir) {
    return LocalCluster.repoRoot().resolve("samples").resolve(dir).toString();
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
