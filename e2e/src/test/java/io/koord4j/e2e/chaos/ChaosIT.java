package io.koord4j.e2e.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.manager.it.InProcessManager;
import io.koord4j.manager.it.ManagerProcess;
import io.koord4j.manager.it.TestCluster;
import io.koord4j.scheduler.SchedulerMain;
import io.koord4j.testing.JavaProcess;
import io.koord4j.testing.LocalCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

/**
 * Jobs of every shape (gangs of 1-8 pods placed by koord-scheduler, three priorities, borrowing
 * and reclaim in a 3-level quota tree) while things fail: the leading manager is killed with
 * SIGKILL, paused past its Lease with a second replica waiting, koord-scheduler is killed with
 * SIGKILL, kube-scheduler, the API server and etcd are restarted. Every job must succeed and the
 * {@link InvariantChecker} must see nothing broken.
 *
 * <p>Its size comes from system properties: {@code chaos.jobs} (100), {@code chaos.managerKills}
 * (2), {@code chaos.submitEveryMillis} (500: how often a job is created), {@code chaos.seed}
 * (random, printed). The default verify runs a short configuration of it, {@code -Pchaos} the long
 * one (see the e2e pom).
 */
class ChaosIT {
  private static final Duration LEASE = Duration.ofSeconds(6);
  /**
   * How long a gang may stay partly bound: a killed koord-scheduler can leave one so until its
   * successor takes the scheduler's 15 s Lease and lists the cluster; its own gang timeout is 600 s.
   */
  private static final Duration GANG_TIMEOUT = Duration.ofSeconds(60);
  private static final int LARGEST_GANG = 8;
  private static final int[] PRIORITIES = {0, 50, 100};
  /** The kinds the manager replicas and the checker read. */
  private static final String[] MANAGER_CRDS = {
    "elasticquotas.scheduling.sigs.k8s.io", "queues.scheduling.x-k8s.io", "queueunits.scheduling.x-k8s.io",
    "podgroups.scheduling.sigs.k8s.io", "devices.scheduling.koordinator.sh", "gangfeasibilityparameters.koord4j.io",
    "nodemetrics.slo.koordinator.sh"
  };

  @Test
  void everyJobSucceedsAndNoInvariantBreaksWhileComponentsFail() throws Exception {
    int jobs = Integer.getInteger("chaos.jobs", 100);
    int managerKills = Integer.getInteger("chaos.managerKills", 2);
    Duration submitEvery = Duration.ofMillis(Long.getLong("chaos.submitEveryMillis", 500));
    long seed = Long.getLong("chaos.seed", System.nanoTime());
    Random random = new Random(seed);
    System.out.printf("chaos: %d jobs, one every %d ms, %d manager kills, seed %d (-Dchaos.seed=%d repeats it)%n",
        jobs, submitEvery.toMillis(), managerKills, seed, seed);
    Instant began = Instant.now();
    InProcessManager.stop(); // only the replicas under test may admit
    InProcessManager.ensureNodes();
    try (KubernetesClient client = withCrds(LocalCluster.client());
        TestCluster cluster = new TestCluster(client, "chaos");
        InvariantChecker checker = new InvariantChecker(client, cluster.namespace, cluster.prefix, GANG_TIMEOUT);
        Replicas<ManagerProcess> managers = new Replicas<>(n ->
            ManagerProcess.start(cluster.namespace, managerLease(cluster), LEASE, cluster.prefix + "-manager-" + n));
        Replicas<JavaProcess> schedulers = new Replicas<>(n -> koordScheduler(cluster, n))) {
      awaitNoOtherManagerLeads(client, managerLease(cluster));
      List<String> leaves = quotaTree(cluster);
      List<String> priorityClasses = new ArrayList<>();
      for (int priority : PRIORITIES) {
        priorityClasses.add(cluster.priorityClass("p" + priority, priority));
      }
      managers.start(2);
      schedulers.start(1);
      Submitter submitter =
          new Submitter(cluster, schedulerName(cluster), leaves, priorityClasses, jobs, submitEvery, random);
      Thread submitting = new Thread(submitter, "chaos-submitter");
      submitting.start();
      Instant submissionsBegan = Instant.now();

      List<Fault> faults = faults(cluster, managers, schedulers, managerKills);
      Collections.shuffle(faults, random);
      List<String> injected = new ArrayList<>();
      // Spread over the submissions, so that jobs of every phase meet a fault, at least 2 s apart.
      Duration submissions = submitEvery.multipliedBy(jobs);
      for (int i = 0; i < faults.size(); i++) {
        Instant due = submissionsBegan.plus(submissions.multipliedBy(i + 1).dividedBy(faults.size() + 1));
        Thread.sleep(Math.max(2_000, Duration.between(Instant.now(), due).toMillis()) + random.nextInt(2_000));
        injected.add(inject(faults.get(i), checker, jobs));
      }
      submitting.join();

      try {
        await("every job succeeds").atMost(Duration.ofMinutes(5 + jobs / 100)).pollInterval(Duration.ofSeconds(2))
            .until(() -> succeeded(cluster) == jobs);
      } catch (ConditionTimeoutException e) {
        printUnfinished(cluster);
        throw e;
      }
      System.out.printf("chaos: %d jobs succeeded in %d s, %d resumes, %d manager and %d koord-scheduler replicas"
              + " started in all, %d violations%n",
          jobs, Duration.between(began, Instant.now()).toSeconds(), checker.totalResumes(), managers.started(),
          schedulers.started(), checker.violations().size());
      assertThat(checker.violations())
          .as(() -> String.format(
              "invariants broken (-Dchaos.seed=%d); faults:%n%s%nwhen and by whom:%n%s%nmanager leadership:%n%s",
              seed, String.join("\n", injected), checker.report(), leadership(cluster, managers.started())))
          .isEmpty();
      assertThat(checker.resumes()).as("every job was resumed").hasSize(jobs);
    }
  }

  /** A run of this test alone finds the cluster as it was left, perhaps started afresh. */
  private static KubernetesClient withCrds(KubernetesClient client) {
    LocalCluster.ensureCrds(client, MANAGER_CRDS);
    return client;
  }

  /** root (24 CPU) over a and b (min 12 each), each over two leaves (min 6): leaves borrow up to 24. */
  private static List<String> quotaTree(TestCluster cluster) {
    String root = cluster.quota("root", null, true, "24", "24");
    List<String> leaves = new ArrayList<>();
    for (String half : List.of("a", "b")) {
      String parent = cluster.quota(half, root, true, "12", "24");
      for (int i = 1; i <= 2; i++) {
        leaves.add(cluster.quota(half + i, parent, false, "6", "24"));
      }
    }
    return leaves;
  }

  private record Fault(String name, FaultAction action) {}

  private interface FaultAction {
    void run() throws Exception;
  }

  private static List<Fault> faults(
      TestCluster cluster, Replicas<ManagerProcess> managers, Replicas<JavaProcess> schedulers, int managerKills) {
    List<Fault> faults = new ArrayList<>();
    for (int i = 0; i < managerKills; i++) {
      faults.add(new Fault("manager leader SIGKILL", () -> leader(cluster, managers).kill()));
    }
    faults.add(new Fault("manager leader SIGSTOP past its Lease", () -> {
      ManagerProcess leader = leader(cluster, managers);
      leader.pause();
      Thread.sleep(LEASE.plusSeconds(4).toMillis());
      leader.resume();
    }));
    // A scheduler that lost its Lease in the fault before exits, and is replaced within seconds.
    faults.add(new Fault("koord-scheduler SIGKILL", () ->
        await("a koord-scheduler runs").atMost(Duration.ofMinutes(1))
            .until(() -> schedulers.find(scheduler -> true), Optional::isPresent)
            .orElseThrow()
            .kill()));
    for (String component : List.of("kube-scheduler", "kube-apiserver", "etcd")) {
      faults.add(new Fault(component + " restart", () -> LocalCluster.script("restart", component)));
    }
    return faults;
  }

  private static ManagerProcess leader(TestCluster cluster, Replicas<ManagerProcess> managers) {
    return await("a manager leads").atMost(Duration.ofMinutes(1))
        .until(() -> managers.find(replica -> replica.leaseIdentity().equals(holder(cluster))), Optional::isPresent)
        .orElseThrow();
  }

  /**
   * Waits for every other koord4j manager's Lease (named {@code *-manager}) to be released or to
   * expire: a manager still leading, left by an interrupted run or running beside this one, admits
   * this test's jobs too and breaks its quotas.
   */
  private static void awaitNoOtherManagerLeads(KubernetesClient client, String ours) {
    try {
      await("no other manager leads").atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofSeconds(1))
          .until(() -> otherLeadingManagers(client, ours).isEmpty());
    } catch (ConditionTimeoutException e) {
      throw new IllegalStateException("other koord4j managers lead on the local cluster and would admit this test's"
          + " jobs: " + otherLeadingManagers(client, ours) + "; stop them (helm uninstall, or end the process"
          + " holding the Lease) and run again", e);
    }
  }

  private static List<String> otherLeadingManagers(KubernetesClient client, String ours) {
    Instant now = Instant.now();
    return client.leases().inAnyNamespace().list().getItems().stream()
        .filter(lease -> lease.getMetadata().getName().endsWith("-manager"))
        .filter(lease -> !lease.getMetadata().getName().equals(ours))
        .filter(lease -> lease.getSpec() != null && lease.getSpec().getHolderIdentity() != null
            && !lease.getSpec().getHolderIdentity().isEmpty() && lease.getSpec().getRenewTime() != null
            && lease.getSpec().getRenewTime().toInstant()
                .plusSeconds(Optional.ofNullable(lease.getSpec().getLeaseDurationSeconds()).orElse(15))
                .isAfter(now))
        .map(lease -> lease.getMetadata().getNamespace() + "/" + lease.getMetadata().getName() + " held by "
            + lease.getSpec().getHolderIdentity() + ", renewed " + lease.getSpec().getRenewTime())
        .toList();
  }

  /** Who holds the managers' Lease now, as the Lease says. */
  private static String holder(TestCluster cluster) {
    Lease lease = cluster.client.leases().inNamespace(cluster.namespace).withName(managerLease(cluster)).get();
    return lease == null || lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
  }

  private static String managerLease(TestCluster cluster) {
    return cluster.prefix + "-manager";
  }

  private static String schedulerName(TestCluster cluster) {
    return cluster.prefix + "-koord-scheduler";
  }

  /** koord-scheduler as it runs in production: its own JVM, Lease (in the test's namespace) and port. */
  private static JavaProcess koordScheduler(TestCluster cluster, int n) throws IOException {
    Map<String, String> env = Map.of(
        "SCHEDULER_NAME", schedulerName(cluster),
        "LEASE_NAMESPACE", cluster.namespace,
        "HEALTH_PORT", Integer.toString(JavaProcess.freePort()));
    return JavaProcess.start(SchedulerMain.class.getName(), List.of("-Xmx512m"), env,
        Path.of("target", cluster.prefix + "-koord-scheduler-" + n + ".log"));
  }

  /**
   * Each manager replica's start and loss of leadership, from its log: a broken invariant's report
   * names what led when.
   */
  private static String leadership(TestCluster cluster, int replicas) {
    List<String> lines = new ArrayList<>();
    for (int n = 1; n <= replicas; n++) {
      String name = cluster.prefix + "-manager-" + n;
      try (Stream<String> log = Files.lines(Path.of("target", name + ".log"))) {
        log.filter(line -> line.contains("Leadership") || line.contains("admission loop started"))
            .map(line -> name + " " + line)
            .forEach(lines::add);
      } catch (IOException e) {
        lines.add(name + ": log unreadable (" + e.getMessage() + ")");
      }
    }
    return String.join("\n", lines);
  }

  /**
   * Injects the fault and prints when, and how long until the next job was resumed after it,
   * unless every job was resumed already.
   *
   * @return the line printed
   */
  private static String inject(Fault fault, InvariantChecker checker, int jobs) throws Exception {
    Instant start = Instant.now();
    fault.action().run();
    Instant injected = Instant.now();
    int resumesBefore = checker.totalResumes();
    boolean resumed = awaitQuietly(
        () -> checker.totalResumes() > resumesBefore || checker.resumes().size() == jobs, Duration.ofSeconds(30));
    String next = checker.totalResumes() > resumesBefore
        ? Duration.between(injected, Instant.now()).toMillis() + " ms after"
        : resumed ? "none, every job was resumed" : "not within 30 s";
    String line = String.format("chaos: %-40s at %s took %5d ms; next resume %s", fault.name(), start,
        Duration.between(start, injected).toMillis(), next);
    System.out.println(line);
    return line;
  }

  private static boolean awaitQuietly(java.util.concurrent.Callable<Boolean> condition, Duration atMost) {
    try {
      await().atMost(atMost).pollInterval(Duration.ofMillis(100)).until(condition);
      return true;
    } catch (ConditionTimeoutException e) {
      return false;
    }
  }

  private static long succeeded(TestCluster cluster) {
    return cluster.client.batch().v1().jobs().inNamespace(cluster.namespace).list().getItems().stream()
        .filter(ChaosIT::succeeded)
        .count();
  }

  private static boolean succeeded(Job job) {
    return job.getStatus() != null && job.getStatus().getSucceeded() != null
        && job.getStatus().getSucceeded() >= job.getSpec().getCompletions();
  }

  /** Where each unfinished job stands: its unit's phase and message, its pods' phase and why they wait. */
  private static void printUnfinished(TestCluster cluster) {
    for (Job job : cluster.client.batch().v1().jobs().inNamespace(cluster.namespace).list().getItems()) {
      if (succeeded(job)) {
        continue;
      }
      String name = job.getMetadata().getName();
      QueueUnit unit = cluster.client.resources(QueueUnit.class).inNamespace(cluster.namespace).withName(name).get();
      System.out.printf("chaos: unfinished %s suspend=%s unit %s%n", name, job.getSpec().getSuspend(),
          unit == null || unit.getStatus() == null ? "-" : unit.getStatus().getPhase() + ": " + unit.getStatus().getMessage());
      cluster.client.pods().inNamespace(cluster.namespace).withLabel("job-name", name).list().getItems()
          .forEach(pod -> System.out.printf("chaos:   pod %s %s on %s %s%n", pod.getMetadata().getName(),
              pod.getStatus().getPhase(), pod.getSpec().getNodeName(), pod.getStatus().getConditions().stream()
                  .filter(condition -> "False".equals(condition.getStatus()))
                  .map(condition -> condition.getType() + ": " + condition.getMessage()).toList()));
    }
  }

  /**
   * Creates the jobs at the given pace: first mostly into one leaf, which borrows, then spread
   * over all, which claims the lent quota back. Their pods go to koord-scheduler and, as in
   * Koordinator's guides, name their quota too. Creates that fail while the API server is down are
   * retried until they land once.
   */
  private static final class Submitter implements Runnable {
    private final TestCluster cluster;
    private final String schedulerName;
    private final List<String> leaves;
    private final List<String> priorityClasses;
    private final int jobs;
    private final Duration every;
    private final Random random;
    private final AtomicInteger retries = new AtomicInteger();

    Submitter(TestCluster cluster, String schedulerName, List<String> leaves, List<String> priorityClasses, int jobs,
        Duration every, Random random) {
      this.cluster = cluster;
      this.schedulerName = schedulerName;
      this.leaves = leaves;
      this.priorityClasses = priorityClasses;
      this.jobs = jobs;
      this.every = every;
      this.random = random;
    }

    @Override
    public void run() {
      for (int i = 0; i < jobs; i++) {
        String leaf = i < jobs / 3 && random.nextInt(4) > 0 ? leaves.get(0) : leaves.get(random.nextInt(leaves.size()));
        create(String.format("job-%04d", i), leaf, 1 + random.nextInt(LARGEST_GANG),
            priorityClasses.get(random.nextInt(priorityClasses.size())), (2 + random.nextInt(3)) + "s");
        sleep(every.toMillis());
      }
      System.out.printf("chaos: %d jobs submitted, %d creates retried%n", jobs, retries.get());
    }

    private void create(String name, String leaf, int pods, String priorityClass, String runFor) {
      Job job = cluster.jobOf(name, leaf, pods, "1", runFor,
          pod -> pod.withPriorityClassName(priorityClass).withSchedulerName(schedulerName));
      job.getSpec().getTemplate().getMetadata().setLabels(Map.of(WellKnown.QUOTA_NAME, leaf));
      while (true) {
        try {
          cluster.client.resource(job).create();
          return;
        } catch (KubernetesClientException e) {
          if (e.getCode() == 409) {
            return; // the create that failed on the way back had landed
          }
          retries.incrementAndGet();
          sleep(500);
        }
      }
    }

    private static void sleep(long millis) {
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }
}
