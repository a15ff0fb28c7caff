package io.koord4j.jobs;

import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Kubernetes' own batch/v1 Job: one pod set, {@code main}, that must start whole; suspended
 * through {@code spec.suspend}.
 */
public final class BatchJobAdapter implements JobAdapter<Job> {

  /** Kueue's name for the only pod set of a batch Job. */
  public static final String POD_SET_NAME = "main";

  private static final String TEMPLATE_SPEC_PATH = "spec.template.spec";

  @Override
  public Class<Job> type() {
    return Job.class;
  }

  @Override
  public boolean isSuspended(Job job) {
    return Boolean.TRUE.equals(job.getSpec().getSuspend());
  }

  @Override
  public Optional<Job> withTemplatesMutable(Job job) {
    if (job.getStatus() == null || job.getStatus().getStartTime() == null) {
      return Optional.empty();
    }
    Job copy = new JobBuilder(job).build();
    copy.getStatus().setStartTime(null);
    return Optional.of(copy);
  }

  @Override
  public Job editPodTemplates(Job job, UnaryOperator<PodTemplateSpec> edit) {
    Job copy = new JobBuilder(job).build();
    copy.getSpec().setTemplate(edit.apply(copy.getSpec().getTemplate()));
    return copy;
  }

  /**
   * Parallelism pods (default 1) run at once, but never more than completions, and all of them
   * form the gang.
   */
  @Override
  public List<PodSetInfo> podSets(Job job) {
    JobSpec spec = job.getSpec();
    int count = podCount(spec);
    PodSpec podSpec = spec.getTemplate().getSpec();
    return List.of(
        new PodSetInfo(
            POD_SET_NAME,
            count,
            count,
            spec.getTemplate(),
            PodRequests.of(podSpec, TEMPLATE_SPEC_PATH)));
  }

  /**
   * The job controller runs {@code min(parallelism, completions − succeeded)} pods: the first
   * {@code completions − parallelism} successes are replaced, every later one is not. A job without
   * completions starts no pod once one succeeded.
   */
  @Override
  public Optional<Integer> succeededPodsReplaced(Job job) {
    Integer completions = job.getSpec().getCompletions();
    return Optional.of(completions == null ? 0 : completions - podCount(job.getSpec()));
  }

  private static int podCount(JobSpec spec) {
    int parallelism = spec.getParallelism() == null ? 1 : spec.getParallelism();
    return spec.getCompletions() == null ? parallelism : Math.min(parallelism, spec.getCompletions());
  }

  @Override
  public Optional<String> priorityClassName(Job job) {
    return Optional.ofNullable(job.getSpec().getTemplate().getSpec().getPriorityClassName())
        .filter(name -> !name.isBlank());
  }

  @Override
  public Optional<Integer> priority(Job job) {
    return Optional.ofNullable(job.getSpec().getTemplate().getSpec().getPriority());
  }

  /** The terminal conditions Complete and Failed decide; otherwise active pods mean running. */
  @Override
  public JobPhase status(Job job) {
    JobStatus status = job.getStatus();
    if (status == null) {
      return JobPhase.PENDING;
    }
    if (hasTrueCondition(status, "Complete")) {
      return JobPhase.SUCCEEDED;
    }
    if (hasTrueCondition(status, "Failed")) {
      return JobPhase.FAILED;
    }
    return status.getActive() != null && status.getActive() > 0
        ? JobPhase.RUNNING
        : JobPhase.PENDING;
  }

  /**
   * The job controller sets {@code status.startTime} in the sync that creates the pods of a
   * resumed job (the manager clears it before each resumption), and with it the {@code Suspended}
   * condition to False, or leaves it out.
   */
  @Override
  public boolean resumptionSeen(Job job) {
    return job.getStatus() != null && job.getStatus().getStartTime() != null;
  }

  /**
   * Suspended after its resumption was seen, the job reads {@code Suspended} True only once the job
   * controller has synced it suspended: deleted its pods and left them out of {@code active}. A job
   * never started carries the condition from its first sync on. Pods still terminating keep their
   * quota through the admission loop, which counts every live pod of a unit.
   */
  @Override
  public boolean hasStopped(Job job) {
    return status(job) == JobPhase.PENDING && job.getStatus() != null && hasTrueCondition(job.getStatus(), "Suspended");
  }

  private static boolean hasTrueCondition(JobStatus status, String type) {
    List<JobCondition> conditions = status.getConditions();
    return conditions != null
        && conditions.stream()
            .anyMatch(c -> type.equals(c.getType()) && "True".equals(c.getStatus()));
  }

  @Override
  public List<JsonField> suspensionFields(boolean suspended) {
    return List.of(JsonField.of(suspended, "spec", "suspend"));
  }
}
