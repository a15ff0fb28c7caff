package io.koord4j.e2e.chaos;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.manager.it.TestCluster;
import io.koord4j.manager.support.InformerHandlers;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Watches jobs, their pods and the quota tree with informers of its own and records every moment
 * an invariant breaks. It shares no code with the manager's accounting: a job holds its quota from
 * the moment it is resumed until it finishes, and its pods that are still alive hold theirs after
 * it is suspended again.
 *
 * <ul>
 *   <li>no quota holds more CPU than its max, its children's holdings included;
 *   <li>no job is resumed twice without a suspension in between;
 *   <li>no gang is partly bound for longer than the gang timeout.
 * </ul>
 */
final class InvariantChecker implements AutoCloseable {
  private static final Set<String> FINAL_CONDITIONS = Set.of("Complete", "Failed", "SuccessCriteriaMet", "FailureTarget");
  /** How often a quota seen over its max is read again from the API server (see confirmOverMax). */
  private static final Duration CONFIRM_EVERY = Duration.ofMillis(250);
  private final Clock clock = Clock.systemUTC();
  private final KubernetesClient client;
  private final String jobNamespace;
  private final Duration gangTimeout;
  /** Only quotas of the test are checked against their max. */
  private final String quotaPrefix;
  private final SharedIndexInformer<ElasticQuota> quotas;
  private final SharedIndexInformer<Job> jobs;
  private final SharedIndexInformer<Pod> pods;
  private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
  private final Map<String, Integer> resumes = new HashMap<>();
  private final Map<String, Integer> suspensions = new HashMap<>();
  private final Map<String, Instant> partlyBoundSince = new HashMap<>();
  /** One line per broken invariant and subject, in the order first seen, with when and how. */
  private final Map<String, String> violations = new LinkedHashMap<>();
  private Instant lastConfirmation;

  InvariantChecker(KubernetesClient client, String jobNamespace, String quotaPrefix, Duration gangTimeout) {
    this.client = client;
    this.jobNamespace = jobNamespace;
    this.gangTimeout = gangTimeout;
    this.quotaPrefix = quotaPrefix;
    quotas = client.resources(ElasticQuota.class).inNamespace(TestCluster.QUOTA_NAMESPACE)
        .inform(onAnyChange(ignored -> check()), 0);
    jobs = client.batch().v1().jobs().inNamespace(jobNamespace).inform(new ResourceEventHandler<>() {
      @Override
      public void onAdd(Job job) {
        check();
      }

      @Override
      public void onUpdate(Job before, Job after) {
        countTransition(before, after);
        check();
      }

      @Override
      public void onDelete(Job job, boolean finalStateUnknown) {
        check();
      }
    }, 0);
    pods = client.pods().inNamespace(jobNamespace).inform(onAnyChange(ignored -> check()), 0);
    ticker.scheduleWithFixedDelay(this::check, 1, 1, TimeUnit.SECONDS);
  }

  synchronized List<String> violations() {
    return new ArrayList<>(violations.keySet());
  }

  /** Each violation with the moment first seen and, for a quota, the jobs that held it then. */
  synchronized String report() {
    StringBuilder report = new StringBuilder();
    violations.forEach((violation, detail) -> report.append(violation).append(" ").append(detail).append('\n'));
    return report.toString();
  }

  /** Resumes seen per job. */
  synchronized Map<String, Integer> resumes() {
    return Map.copyOf(resumes);
  }

  synchronized int totalResumes() {
    return resumes.values().stream().mapToInt(Integer::intValue).sum();
  }

  @Override
  public void close() {
    ticker.shutdownNow();
    pods.stop();
    jobs.stop();
    quotas.stop();
  }

  private synchronized void countTransition(Job before, Job after) {
    String name = after.getMetadata().getName();
    if (suspended(before) && !suspended(after)) {
      int resumed = resumes.merge(name, 1, Integer::sum);
      if (resumed > suspensions.getOrDefault(name, 0) + 1) {
        violations.putIfAbsent("job " + name + " resumed " + resumed + " times after "
            + suspensions.getOrDefault(name, 0) + " suspensions", "at " + clock.instant());
      }
    } else if (!suspended(before) && suspended(after)) {
      suspensions.merge(name, 1, Integer::sum);
    }
  }

  private synchronized void check() {
    List<Job> jobList = jobs.getStore().list();
    Map<String, List<Pod>> podsByJob = byJob(pods.getStore().list());
    jobList.forEach(job -> checkGang(job, podsByJob.getOrDefault(job.getMetadata().getName(), List.of())));
    Map<String, String> seen = overMax(holdings(jobList, podsByJob));
    if (!seen.isEmpty()) {
      confirmOverMax(seen.values());
    }
  }

  /**
   * The two informers each stand at their own moment (a watch lags on its own, and after an API
   * server restart each relists when it reconnects), so together they can show a job resumed
   * next to the still running pods of the job it waited for. A quota seen over its max is
   * therefore read again from the API server, jobs first, then pods: a pod only ends, so every pod
   * alive at the second read was alive at the first, and what the two reads show was held at once.
   */
  private void confirmOverMax(Collection<String> seen) {
    Instant now = clock.instant();
    if (lastConfirmation != null && Duration.between(lastConfirmation, now).compareTo(CONFIRM_EVERY) < 0) {
      return; // the ticker looks again
    }
    lastConfirmation = now;
    Holdings read;
    try {
      List<Job> jobList = client.batch().v1().jobs().inNamespace(jobNamespace).list().getItems();
      read = holdings(jobList, byJob(client.pods().inNamespace(jobNamespace).list().getItems()));
    } catch (KubernetesClientException e) {
      System.out.printf("chaos: a quota seen over its max at %s could not be read again: %s%n", now, e.getMessage());
      return;
    }
    Map<String, String> confirmed = overMax(read);
    if (confirmed.isEmpty()) {
      System.out.printf("chaos: the informers showed %s at %s; read again, no quota is over its max%n", seen, now);
    }
    confirmed.forEach((quota, violation) -> {
      String detail = "at " + now + ", held by: " + read.holders().get(quota);
      if (violations.putIfAbsent(violation, detail) == null) {
        System.out.printf("chaos: %s %s%n", violation, detail);
      }
    });
  }

  /** CPU held per quota, its children's included, and by whom. */
  private record Holdings(Map<String, BigDecimal> cpu, Map<String, List<String>> holders) {}

  private Holdings holdings(List<Job> jobList, Map<String, List<Pod>> podsByJob) {
    Holdings holdings = new Holdings(new HashMap<>(), new HashMap<>());
    for (Job job : jobList) {
      List<Pod> jobPods = podsByJob.getOrDefault(job.getMetadata().getName(), List.of());
      BigDecimal cpu = heldCpu(job, jobPods);
      for (String q = job.getMetadata().getLabels().get(WellKnown.QUOTA_NAME); q != null && !q.isEmpty(); q = parentOf(q)) {
        holdings.cpu().merge(q, cpu, BigDecimal::add);
        if (cpu.signum() > 0) {
          holdings.holders().computeIfAbsent(q, ignored -> new ArrayList<>()).add(holding(job, jobPods, cpu));
        }
      }
    }
    return holdings;
  }

  /** A violation's line per quota holding more than its max. */
  private Map<String, String> overMax(Holdings holdings) {
    Map<String, String> over = new HashMap<>();
    holdings.cpu().forEach((quota, cpu) -> {
      BigDecimal max = maxCpu(quota);
      if (max != null && cpu.compareTo(max) > 0) {
        over.put(quota, "quota " + quota + " holds " + cpu.toPlainString() + " CPU over its max " + max.toPlainString());
      }
    });
    return over;
  }

  private static Map<String, List<Pod>> byJob(List<Pod> podList) {
    Map<String, List<Pod>> podsByJob = new HashMap<>();
    for (Pod pod : podList) {
      String job = pod.getMetadata().getLabels() == null ? null : pod.getMetadata().getLabels().get("job-name");
      if (job != null) {
        podsByJob.computeIfAbsent(job, name -> new ArrayList<>()).add(pod);
      }
    }
    return podsByJob;
  }

  /** How a job holds its CPU, for the report of a broken quota: enough to tell which path let it in. */
  private static String holding(Job job, List<Pod> jobPods, BigDecimal cpu) {
    long alive = jobPods.stream().filter(InvariantChecker::alive).count();
    long terminating = jobPods.stream().filter(pod -> pod.getMetadata().getDeletionTimestamp() != null).count();
    return job.getMetadata().getName() + "[" + job.getMetadata().getLabels().get(WellKnown.QUOTA_NAME)
        + (suspended(job) ? " suspended" : " running") + " cpu=" + cpu.toPlainString()
        + " parallelism=" + job.getSpec().getParallelism() + " alive=" + alive + " terminating=" + terminating
        + " priority=" + job.getSpec().getTemplate().getSpec().getPriorityClassName()
        + " resumed=" + Optional.ofNullable(job.getMetadata().getAnnotations())
            .map(annotations -> annotations.get(WellKnown.JOB_DEQUEUE_TIMESTAMP)).orElse("never") + "]";
  }

  /**
   * While running: its whole gang but the pods that succeeded and are not replaced; once suspended
   * or finished: what its live pods still hold. A job whose pods have all succeeded has finished,
   * though its status may say so only later: the job controller writes it from those same pods.
   */
  private static BigDecimal heldCpu(Job job, List<Pod> jobPods) {
    BigDecimal livePods = jobPods.stream().filter(InvariantChecker::alive)
        .map(InvariantChecker::podCpu).reduce(BigDecimal.ZERO, BigDecimal::add);
    long succeeded = jobPods.stream()
        .filter(pod -> pod.getStatus() != null && "Succeeded".equals(pod.getStatus().getPhase())).count();
    if (suspended(job) || finished(job) || succeeded >= job.getSpec().getCompletions()) {
      return livePods;
    }
    BigDecimal gang = podCpu(job.getSpec().getTemplate().getSpec().getContainers())
        .multiply(BigDecimal.valueOf(job.getSpec().getParallelism() - notReplaced(job, succeeded)));
    return gang.max(livePods);
  }

  /**
   * Of the job's succeeded pods, how many the job controller does not start again: it keeps
   * parallelism pods running only while more completions than that remain.
   */
  private static long notReplaced(Job job, long succeeded) {
    int parallelism = job.getSpec().getParallelism();
    long replaced = Math.max(0, job.getSpec().getCompletions() - parallelism);
    return Math.min(parallelism, Math.max(0, succeeded - replaced));
  }

  private void checkGang(Job job, List<Pod> jobPods) {
    String name = job.getMetadata().getName();
    long bound = jobPods.stream().filter(InvariantChecker::alive)
        .filter(pod -> pod.getSpec().getNodeName() != null).count();
    boolean anyEnded = jobPods.stream().anyMatch(pod -> !alive(pod));
    boolean partly = !suspended(job) && !anyEnded && bound > 0 && bound < job.getSpec().getParallelism();
    if (!partly) {
      partlyBoundSince.remove(name);
      return;
    }
    Instant since = partlyBoundSince.computeIfAbsent(name, ignored -> clock.instant());
    if (Duration.between(since, clock.instant()).compareTo(gangTimeout) > 0) {
      violations.putIfAbsent("job " + name + " partly bound (" + bound + " of " + job.getSpec().getParallelism()
          + " pods) for longer than " + gangTimeout.toSeconds() + " s", "since " + since);
    }
  }

  private String parentOf(String quota) {
    ElasticQuota eq = quotas.getStore().getByKey(TestCluster.QUOTA_NAMESPACE + "/" + quota);
    return eq == null || eq.getMetadata().getLabels() == null ? null : eq.getMetadata().getLabels().get(WellKnown.QUOTA_PARENT);
  }

  private BigDecimal maxCpu(String quota) {
    if (!quota.startsWith(quotaPrefix)) {
      return null;
    }
    ElasticQuota eq = quotas.getStore().getByKey(TestCluster.QUOTA_NAMESPACE + "/" + quota);
    Quantity max = eq == null || eq.getSpec().getMax() == null ? null : eq.getSpec().getMax().get("cpu");
    return max == null ? null : max.getNumericalAmount();
  }

  private static BigDecimal podCpu(Pod pod) {
    return podCpu(pod.getSpec().getContainers());
  }

  private static BigDecimal podCpu(List<io.fabric8.kubernetes.api.model.Container> containers) {
    return containers.stream()
        .map(container -> container.getResources().getRequests().get("cpu"))
        .filter(java.util.Objects::nonNull)
        .map(Quantity::getNumericalAmount)
        .reduce(BigDecimal.ZERO, BigDecimal::add);
  }

  private static boolean alive(Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return !"Succeeded".equals(phase) && !"Failed".equals(phase);
  }

  private static boolean suspended(Job job) {
    return Boolean.TRUE.equals(job.getSpec().getSuspend());
  }

  /** All its pods succeeded, or the job controller has given it a final condition. */
  static boolean finished(Job job) {
    if (job.getStatus() == null) {
      return false;
    }
    Integer succeeded = job.getStatus().getSucceeded();
    return succeeded != null && succeeded >= job.getSpec().getCompletions()
        || job.getStatus().getConditions() != null && job.getStatus().getConditions().stream()
            .anyMatch(c -> FINAL_CONDITIONS.contains(c.getType()) && "True".equals(c.getStatus()));
  }

  private static <T> ResourceEventHandler<T> onAnyChange(Consumer<T> action) {
    return InformerHandlers.handler(action, action);
  }
}
