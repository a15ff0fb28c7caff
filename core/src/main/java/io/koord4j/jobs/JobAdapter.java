package io.koord4j.jobs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.WellKnown;
import io.koord4j.quantity.ResourceQuantities;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
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
   * Whether the queue leaves a job with this metadata alone even if it names a queue: it opted
   * out (see {@link QueueMembership#optsOut}); kinds add their own cases, e.g. a part of a job
   * queued as a whole. Read from the metadata alone, so that the webhook need not read the job.
   */
  default boolean isSkipped(ObjectMeta metadata) {
    return QueueMembership.optsOut(metadata);
  }

  /**
   * Whether the job waits in a queue: it is not skipped, and it names a queue or quota (see {@link
   * QueueMembership}) or lives in a namespace the queue manages.
   */
  default boolean isManaged(T job, boolean namespaceIsManaged) {
    return !isSkipped(job.getMetadata())
        && QueueMembership.isManaged(job.getMetadata(), namespaceIsManaged);
  }

  /**
   * The queue a job with this metadata names, with the precedence documented on {@link
   * QueueMembership}; none when the job is skipped.
   */
  default Optional<String> queueName(ObjectMeta metadata) {
    return isSkipped(metadata) ? Optional.empty() : QueueMembership.queueName(metadata);
  }

  /** Whether the job is held back so that it starts no pods. */
  boolean isSuspended(T job);

  /**
   * The fields of the kind's JSON, with their values, that hold a job back ({@code true}) or let
   * it start its pods ({@code false}).
   */
  List<JsonField> suspensionFields(boolean suspended);

  /** A copy of the job, suspended or allowed to start its pods. */
  default T withSuspended(T job, boolean suspended) {
    return withFields(job, suspensionFields(suspended));
  }

  /** A copy of the job, suspended. */
  default T suspend(T job) {
    return withSuspended(job, true);
  }

  /**
   * The fields that hold a job with this metadata for the queue: suspended and marked as taken
   * into it (koord-queue's {@code job-has-enqueued} and {@code job-enqueue-timestamp}, an earlier
   * time kept). The webhook sets them as a job is created, so that the queue has nothing to write
   * before it creates the job's unit.
   */
  default List<JsonField> enqueueFields(ObjectMeta metadata, Instant now) {
    List<JsonField> fields = new ArrayList<>(suspensionFields(true));
    fields.add(JsonField.of("true", "metadata", "annotations", WellKnown.JOB_HAS_ENQUEUED));
    Map<String, String> annotations = metadata == null ? null : metadata.getAnnotations();
    if (annotations == null || !annotations.containsKey(WellKnown.JOB_ENQUEUE_TIMESTAMP)) {
      fields.add(
          JsonField.of(now.toString(), "metadata", "annotations", WellKnown.JOB_ENQUEUE_TIMESTAMP));
    }
    return fields;
  }

  /** The job held for the queue (see {@link #enqueueFields}): the job itself when it is already. */
  default T enqueued(T job, Instant now) {
    Map<String, String> annotations = job.getMetadata() == null ? null : job.getMetadata().getAnnotations();
    if (isSuspended(job) && annotations != null && "true".equals(annotations.get(WellKnown.JOB_HAS_ENQUEUED))) {
      return job;
    }
    return withFields(job, enqueueFields(job.getMetadata(), now));
  }

  /** A copy of the job with the fields set, read back into the kind's type. */
  private T withFields(T job, List<JsonField> fields) {
    ObjectNode json = Serialization.jsonMapper().valueToTree(job);
    JsonFieldEdit.apply(json, fields);
    try {
      return Serialization.jsonMapper().treeToValue(json, type());
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot read the " + kind() + " back: " + e.getOriginalMessage(), e);
    }
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

  /**
   * For a job of one pod set whose succeeded pods are not all replaced: how many succeeded pods it
   * replaces with new ones before each further success leaves its pod's share unused (see {@link
   * io.koord4j.api.WellKnown#SUCCEEDED_PODS_REPLACED}). Empty when the kind does not say, so the
   * quota is held until the job ends.
   */
  default Optional<Integer> succeededPodsReplaced(T job) {
    return Optional.empty();
  }

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
