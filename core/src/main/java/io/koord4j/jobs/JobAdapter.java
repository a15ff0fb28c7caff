package io.koord4j.jobs;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.koord4j.api.WellKnown;
import io.koord4j.quantity.ResourceQuantities;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * How the queue reads and controls one kind of job. One implementation per kind, registered in
 * {@link JobAdapters}; the webhook and the queue controller use only this interface.
 *
 * <p>Implementations are pure: they make no client calls, and methods that change a job return a
 * modified copy and leave their argument untouched. Kinds without fabric8 model classes implement
 * {@code JobAdapter<GenericKubernetesResource>}.
 *
 * @param <T> the object type of the job kind
 */
public interface JobAdapter<T extends HasMetadata> {

  /**
   * The Java type of the jobs handled, to cast objects found by apiVersion and kind. Its
   * {@code @Group}, {@code @Version} and {@code @Kind} annotations name the kind.
   */
  Class<T> type();

  /** The apiVersion handled, e.g. {@code batch/v1}. */
  default String apiVersion() {
    return HasMetadata.getApiVersion(type());
  }

  /** The kind handled, e.g. {@code Job}. */
  default String kind() {
    return HasMetadata.getKind(type());
  }

  /**
   * Whether the queue leaves the job alone even if it names a queue: it opted out (see {@link
   * QueueMembership#optsOut}); kinds add their own cases, e.g. a part of a job queued as a whole.
   */
  default boolean isSkipped(T job) {
    return QueueMembership.optsOut(job.getMetadata());
  }

  /**
   * Whether the job waits in a queue: it is not skipped, and it names a queue or quota (see {@link
   * QueueMembership}) or lives in a namespace the queue manages.
   */
  default boolean isManaged(T job, boolean namespaceIsManaged) {
    return !isSkipped(job) && QueueMembership.isManaged(job.getMetadata(), namespaceIsManaged);
  }

  /**
   * The queue the job names, with the precedence documented on {@link QueueMembership}; none when
   * the job is skipped.
   */
  default Optional<String> queueName(T job) {
    return isSkipped(job) ? Optional.empty() : QueueMembership.queueName(job.getMetadata());
  }

  /** Whether the job is held back so that it starts no pods. */
  boolean isSuspended(T job);

  /** A copy of the job, suspended or allowed to start its pods. */
  T withSuspended(T job, boolean suspended);

  /** A copy of the job, suspended. */
  default T suspend(T job) {
    return withSuspended(job, true);
  }

  /**
   * The job held for the queue: suspended and marked as taken into it (koord-queue's {@code
   * job-has-enqueued} and {@code job-enqueue-timestamp}, an earlier time kept). The job itself
   * when it is both already, else a copy. The webhook holds a job this way as it is created, so
   * that the queue has nothing to write before it creates the job's unit.
   */
  default T enqueued(T job, Instant now) {
    Map<String, String> annotations = job.getMetadata() == null ? null : job.getMetadata().getAnnotations();
    if (isSuspended(job) && annotations != null && "true".equals(annotations.get(WellKnown.JOB_HAS_ENQUEUED))) {
      return job;
    }
    T held = suspend(job);
    if (held.getMetadata() == null) {
      held.setMetadata(new ObjectMeta());
    }
    Map<String, String> marked = new HashMap<>(annotations == null ? Map.of() : annotations);
    marked.putIfAbsent(WellKnown.JOB_ENQUEUE_TIMESTAMP, now.toString());
    marked.put(WellKnown.JOB_HAS_ENQUEUED, "true");
    held.getMetadata().setAnnotations(marked);
    return held;
  }

  /** A copy of the job, allowed to start its pods. */
  default T resume(T job) {
    return withSuspended(job, false);
  }

  /**
   * A copy of the job with every pod template replaced by {@code edit} of it, e.g. to put the pods
   * into a gang before the job is resumed (templates are mutable while a job is suspended).
   */
  T editPodTemplates(T job, UnaryOperator<PodTemplateSpec> edit);

  /**
   * The job's status without what keeps its templates immutable once it ran, for a status write
   * before {@link #editPodTemplates} on a job that is started again; empty when nothing needs
   * clearing. A batch Job's templates stay immutable while {@code status.startTime} is set, even
   * suspended, so Kueue clears it too.
   */
  default Optional<T> withTemplatesMutable(T job) {
    return Optional.empty();
  }

  /**
   * The job's groups of identical pods, in a stable order.
   *
   * @throws IllegalArgumentException naming the field of an invalid resource quantity
   */
  List<PodSetInfo> podSets(T job);

  /** What all pods of the job request together, in base units. */
  default Map<String, BigDecimal> totalRequests(T job) {
    return podSets(job).stream()
        .map(PodSetInfo::totalRequests)
        .reduce(Map.of(), ResourceQuantities::sum);
  }

  /** The priority class the job's pods ask for, if any; by default the first their templates name. */
  default Optional<String> priorityClassName(T job) {
    return JobFields.priorityClassName(podSets(job));
  }

  /**
   * The numeric priority set on the job's pods, if any (normally resolved from the class); by
   * default the first set on their templates.
   */
  default Optional<Integer> priority(T job) {
    return JobFields.priority(podSets(job));
  }

  /** Where the job is in its life. */
  JobPhase status(T job);

  /**
   * Whether the job's controller has acted on its resumption (created its pods, or is past
   * creating them), so that a suspension written now is the next thing it acts on. A job
   * suspended before its controller saw it resumed could still get pods from that stale view
   * after its quota was released. By default the kind's status tells nothing more, and true.
   */
  default boolean resumptionSeen(T job) {
    return true;
  }

  /**
   * Whether a suspended job has stopped: its controller has acted on the suspension and no pod of
   * it runs or terminates, so its quota may go to another unit.
   */
  default boolean hasStopped(T job) {
    return status(job) == JobPhase.PENDING;
  }
}
