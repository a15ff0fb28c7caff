package io.koord4j.bench;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.koord4j.manager.support.InformerHandlers;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Watches the Jobs and pods of one namespace and records, by job index, when this process first
 * saw each job running ({@code spec.suspend} not true) and when it first saw all of the job's
 * pods exist and when it first saw it complete ({@code System.nanoTime()}, 0 until then). Whether each job was seen suspended first
 * tells that a queue held it. Watch delivery delay is the same for every system measured.
 */
final class AdmissionTimes implements AutoCloseable {
  private static final String JOB_NAME_LABEL = "batch.kubernetes.io/job-name";

  private final List<AdmissionWorkload.JobShape> jobs;
  private final AtomicLongArray started;
  private final AtomicLongArray podsExist;
  private final AtomicLongArray completed;
  private final Set<Integer> held = ConcurrentHashMap.newKeySet();
  private final Map<Integer, Set<String>> pods = new ConcurrentHashMap<>();
  private final SharedIndexInformer<Job> jobInformer;
  private final SharedIndexInformer<Pod> podInformer;

  AdmissionTimes(KubernetesClient client, String namespace, List<AdmissionWorkload.JobShape> jobs) {
    this.jobs = jobs;
    started = new AtomicLongArray(jobs.size());
    podsExist = new AtomicLongArray(jobs.size());
    completed = new AtomicLongArray(jobs.size());
    jobInformer = client.batch().v1().jobs().inNamespace(namespace).inform(InformerHandlers.handler(this::seen, gone -> {}));
    podInformer = client.pods().inNamespace(namespace).inform(InformerHandlers.handler(this::seen, gone -> {}));
  }

  private void seen(Job job) {
    int index = index(job.getMetadata().getName());
    if (Boolean.TRUE.equals(job.getSpec().getSuspend())) {
      held.add(index);
    } else {
      started.compareAndSet(index, 0, System.nanoTime());
    }
    if (job.getStatus() != null && job.getStatus().getConditions().stream()
        .anyMatch(c -> "Complete".equals(c.getType()) && "True".equals(c.getStatus()))) {
      completed.compareAndSet(index, 0, System.nanoTime());
    }
  }

  private void seen(Pod pod) {
    String job = pod.getMetadata().getLabels() == null ? null : pod.getMetadata().getLabels().get(JOB_NAME_LABEL);
    if (job == null) {
      return;
    }
    int index = index(job);
    Set<String> names = pods.computeIfAbsent(index, i -> ConcurrentHashMap.newKeySet());
    names.add(pod.getMetadata().getName());
    if (names.size() >= jobs.get(index).pods()) {
      podsExist.compareAndSet(index, 0, System.nanoTime());
    }
  }

  private static int index(String jobName) {
    return Integer.parseInt(jobName.substring(jobName.indexOf('-') + 1));
  }

  /** When each job was first seen running, by index; 0 for not yet. */
  long[] started() {
    return copy(started);
  }

  /** When all pods of each job were first seen, by index; 0 for not yet. */
  long[] podsExist() {
    return copy(podsExist);
  }

  /** When each job was first seen complete, by index; 0 for not yet. */
  long[] completed() {
    return copy(completed);
  }

  /** How many jobs were seen suspended before they ran. */
  int held() {
    return held.size();
  }

  /**
   * Waits until {@code expected} jobs (those created) have started, have all their pods and have
   * completed; false if the timeout passes first.
   */
  boolean await(int expected, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (count(started) >= expected && count(podsExist) >= expected && count(completed) >= expected) {
        return true;
      }
      Thread.sleep(100);
    }
    return false;
  }

  /** A line on progress for the log. */
  String progress() {
    return count(started) + " of " + jobs.size() + " jobs started, " + count(podsExist) + " with all pods, "
        + count(completed) + " complete";
  }

  private static int count(AtomicLongArray times) {
    int count = 0;
    for (int i = 0; i < times.length(); i++) {
      count += times.get(i) == 0 ? 0 : 1;
    }
    return count;
  }

  private static long[] copy(AtomicLongArray times) {
    long[] copy = new long[times.length()];
    for (int i = 0; i < copy.length; i++) {
      copy[i] = times.get(i);
    }
    return copy;
  }

  @Override
  public void close() {
    jobInformer.close();
    podInformer.close();
  }
}
