package io.koord4j.manager.jobs;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitConditions;
import io.koord4j.api.queue.QueueUnitPhase;
import io.koord4j.api.queue.QueueUnitSpec;
import io.koord4j.api.queue.QueueUnitStatus;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.jobs.GangShape;
import io.koord4j.jobs.JobAdapter;
import io.koord4j.jobs.JobPhase;
import io.koord4j.jobs.PodSetInfo;
import io.koord4j.manager.admission.UnitStatuses;
import io.koord4j.manager.support.Json;
import io.koord4j.manager.support.KubeObjects;
import io.koord4j.manager.support.QueueUnitStatusRecorder;
import io.koord4j.manager.support.SharedInformers;
import io.koord4j.manager.support.StoredAhead;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.quota.kube.QuotaResolver;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Keeps one kind of job in step with its QueueUnit, for any {@link JobAdapter}: a queued job gets a
 * unit and stays suspended until the unit is admitted; then it is resumed (as a gang when it has
 * more than one pod); a preempted unit suspends it again, and once the job has no pod left the
 * unit releases its quota; a finished job finishes its unit, which releases its quota. Each step
 * looks only at the current job and unit, so a crash between steps is repaired by the next
 * reconcile. A job whose fields the adapter cannot read stays suspended and is marked (see
 * {@link InvalidJobs}) until its owner fixes it; the controller carries on with other jobs.
 *
 * <p>The operator SDK reads the job type from the type argument, so each kind registers a
 * named subclass (see {@link JobIntegrations}).
 */
public class JobReconciler<T extends HasMetadata> implements Reconciler<T> {

  private final JobAdapter<T> adapter;
  private final Clock clock;
  private final SharedInformers informers;
  private final GangPodGroups podGroups;
  private final SharedIndexInformer<PriorityClass> priorityClasses;
  /**
   * Jobs this reconciler wrote that its informer may not show yet. A reconcile on the older copy
   * (its unit's next event often comes first) would resume or suspend the job again, and the
   * second write would make the job controller's status write conflict and back off.
   */
  private final StoredAhead<T> writtenJobs = new StoredAhead<>();

  public JobReconciler(JobAdapter<T> adapter, Clock clock, SharedInformers informers) {
    this.adapter = adapter;
    this.clock = clock;
    this.informers = informers;
    this.podGroups = new GangPodGroups(informers);
    this.priorityClasses = informers.of(PriorityClass.class);
  }

  /** The job type, e.g. to check that the cluster serves the kind before watching it. */
  public Class<T> jobType() {
    return adapter.type();
  }

  /** A controller name unique per job kind. */
  public String name() {
    return "jobs-" + adapter.kind().toLowerCase() + "-" + adapter.apiVersion().replace('/', '-');
  }

  @Override
  public List<EventSource<?, T>> prepareEventSources(EventSourceContext<T> context) {
    podGroups.watch();
    informers.start(priorityClasses);
    return List.of(new OwnedQueueUnits<>(informers, adapter.kind()));
  }

  @Override
  public UpdateControl<T> reconcile(T informed, Context<T> context) {
    writtenJobs.seen(informed);
    T job = writtenJobs.latest(informed);
    Optional<String> queue = adapter.queueName(job.getMetadata());
    if (queue.isEmpty()) {
      return UpdateControl.noUpdate();
    }
    try {
      reconcile(job, queue.get(), context);
      InvalidJobs.clear(context.getClient(), job);
    } catch (IllegalArgumentException e) {
      // A field the adapter cannot read: the job stays suspended until its owner fixes it.
      InvalidJobs.record(context.getClient(), job, adapter.type(), e.getMessage(), clock.instant());
    }
    return UpdateControl.noUpdate();
  }

  private void reconcile(T job, String queue, Context<T> context) {
    KubernetesClient client = context.getClient();
    JobPhase phase = adapter.status(job);
    Optional<QueueUnit> unit = context.getSecondaryResource(QueueUnit.class);
    if (unit.isEmpty()) {
      if (!phase.isFinished()) {
        enqueue(job, queue, client);
      }
      return;
    }
    QueueUnitStatus status = unit.get().getStatus();
    Optional<String> change = changeSinceReserved(job, unit.get());
    if (phase.isFinished()) {
      finish(unit.get(), phase, client);
    } else if (change.isPresent()) {
      requeueChanged(unit.get(), change.get(), client);
    } else if (UnitStatuses.isAdmitted(status)) {
      if (adapter.isSuspended(job)) {
        start(job, unit.get(), client);
      } else if (phase == JobPhase.RUNNING && QueueUnitPhase.DEQUEUED.equals(status.getPhase())) {
        markRunning(unit.get(), client);
      }
    } else if (!UnitStatuses.isFinished(status)) {
      if (!adapter.isSuspended(job)) {
        // Else the job's status changes once its controller has seen the resumption: reconciled then.
        if (adapter.resumptionSeen(job)) {
          writtenJobs.stored(client.resource(adapter.suspend(job)).update(), job);
        }
      } else if (UnitStatuses.awaitsRelease(status)) {
        if (adapter.hasStopped(job)) {
          // Suspended with no pod left: only now may the queue give the quota to another unit.
          writeStatus(unit.get(), UnitStatuses.released(status, clock.instant()), client);
        }
      } else {
        refreshDemand(job, queue, unit.get(), client);
      }
    }
  }

  /**
   * Holds the job and marks it queued, if the webhook did not, then creates its gang's PodGroup
   * and its unit side by side: the group waits with the job, off the path from admission to
   * resumption, and admission waits for the unit alone. The job's next reconcile, which may
   * resume it, starts only once both are written.
   */
  private void enqueue(T job, String queue, KubernetesClient client) {
    T queued = adapter.enqueued(job, clock.instant());
    if (queued != job) {
      queued = client.resource(queued).update();
    }
    QueueUnit unit = QueueUnits.desired(adapter, queued, queue, priority(queued, client));
    CompletableFuture<Void> group = podGroups.ensureBeside(queued, adapter.podSets(queued), client);
    KubeObjects.createIfAbsent(client, unit);
    podGroups.await(group);
  }

  /**
   * Joins the pods to the gang, keeps them where the admission checks placed the gang, and
   * resumes the job in one patch, after the PodGroup exists at the job's current size.
   */
  private void start(T suspended, QueueUnit unit, KubernetesClient client) {
    // A job that ran before has its start cleared first, so that its templates may change.
    T job =
        adapter.withTemplatesMutable(suspended).isEmpty()
            ? suspended
            : client.resource(suspended).editStatus(ran -> adapter.withTemplatesMutable(ran).orElse(ran));
    List<PodSetInfo> podSets = adapter.podSets(job);
    podGroups.ensure(job, podSets, client);
    Map<String, String> nodeSelector = UnitStatuses.checkedNodeSelector(unit.getStatus());
    String quota = quotaOf(unit);
    T started = adapter.resume(adapter.editPodTemplates(
        job, t -> Gangs.withNodeSelector(Gangs.join(t, job, podSets, quota), nodeSelector)));
    Map<String, String> annotations = new HashMap<>(orEmpty(started.getMetadata().getAnnotations()));
    annotations.put(WellKnown.JOB_DEQUEUE_TIMESTAMP, now());
    started.getMetadata().setAnnotations(annotations);
    // A patch: the job controller writes the suspended job's status meanwhile, and an update of
    // the informer's copy would conflict with it and wait for a retry.
    writtenJobs.stored(KubeObjects.patchChanges(client, job, started), job);
  }

  /** The quota the admission loop charges the unit to, resolved from the same quotas. */
  private String quotaOf(QueueUnit unit) {
    Map<String, ElasticQuota> byName = new HashMap<>();
    informers.of(ElasticQuota.class).getStore().list()
        .forEach(quota -> byName.put(quota.getMetadata().getName(), quota));
    return QuotaResolver.resolve(unit, byName);
  }

  private void finish(QueueUnit unit, JobPhase phase, KubernetesClient client) {
    if (UnitStatuses.isFinished(unit.getStatus())) {
      return;
    }
    boolean succeeded = phase == JobPhase.SUCCEEDED;
    QueueUnitStatus status = statusOf(unit);
    status.setPhase(succeeded ? QueueUnitPhase.SUCCEED : QueueUnitPhase.FAILED);
    status.setMessage(succeeded ? "job succeeded" : "job failed");
    status.setConditions(
        UnitStatuses.set(
            status.getConditions(), QueueUnitConditions.FINISHED, true,
            succeeded ? "Succeeded" : "Failed", status.getMessage(), clock.instant()));
    writeStatus(unit, status, client);
  }

  /** Its pods run; whether they are all ready is the admission loop's to record (PodsReady). */
  private void markRunning(QueueUnit unit, KubernetesClient client) {
    QueueUnitStatus status = statusOf(unit);
    status.setPhase(QueueUnitPhase.RUNNING);
    writeStatus(unit, status, client);
  }

  /**
   * How the job's pod counts or requests differ from those its unit holds quota for; empty when
   * they do not, or when the unit holds none. Such a change got past the webhook (down, or made
   * by a controller).
   */
  private Optional<String> changeSinceReserved(T job, QueueUnit unit) {
    QueueUnitStatus status = unit.getStatus();
    boolean holdsQuota = UnitStatuses.isAdmitted(status) || UnitStatuses.isReserved(status);
    return holdsQuota
        ? QueueUnits.shape(unit).changeTo(GangShape.of(adapter, job))
        : Optional.empty();
  }

  /** Evicts the unit; the job is then suspended, and its unit asks again for the new size. */
  private void requeueChanged(QueueUnit unit, String change, KubernetesClient client) {
    QueueUnitStatus evicted = UnitStatuses.jobChanged(unit, change, clock.instant());
    writeStatus(unit, evicted, client);
    new QueueUnitStatusRecorder(client)
        .event(unit, "Warning", QueueUnitConditions.REASON_JOB_CHANGED, evicted.getMessage(), clock.instant());
  }

  /** A job changed while queued (e.g. its parallelism): the unit asks for the new amounts. */
  private void refreshDemand(T job, String queue, QueueUnit unit, KubernetesClient client) {
    QueueUnitSpec desired = QueueUnits.spec(adapter, job, queue, priority(job, client));
    QueueUnitSpec current = unit.getSpec();
    String replaced = QueueUnits.annotations(adapter, job).get(WellKnown.SUCCEEDED_PODS_REPLACED);
    boolean same =
        Objects.equals(desired.getQueue(), current.getQueue())
            && Objects.equals(desired.getPriority(), current.getPriority())
            && ResourceQuantities.toVector(desired.getResource())
                .equals(ResourceQuantities.toVector(current.getResource()))
            && Objects.equals(replaced, annotation(unit, WellKnown.SUCCEEDED_PODS_REPLACED));
    if (!same) {
      QueueUnit updated = Json.copy(unit);
      desired.setActive(current.getActive());
      updated.setSpec(desired);
      Map<String, String> annotations = new HashMap<>(orEmpty(updated.getMetadata().getAnnotations()));
      annotations.remove(WellKnown.SUCCEEDED_PODS_REPLACED);
      if (replaced != null) {
        annotations.put(WellKnown.SUCCEEDED_PODS_REPLACED, replaced);
      }
      updated.getMetadata().setAnnotations(annotations);
      client.resource(updated).update();
    }
  }

  /**
   * The job's own priority, else its priority class's value: from the informer, which every
   * reconcile of a waiting job asks, or read once while the informer has not listed the class.
   */
  private Integer priority(T job, KubernetesClient client) {
    return adapter
        .priority(job)
        .or(() -> adapter.priorityClassName(job).map(name -> priorityClass(name, client)).map(PriorityClass::getValue))
        .orElse(null);
  }

  private PriorityClass priorityClass(String name, KubernetesClient client) {
    PriorityClass known = priorityClasses.getStore().getByKey(name);
    return known != null ? known : client.scheduling().v1().priorityClasses().withName(name).get();
  }

  /** Writes the unit's status and tells the admission loop at once: it may free quota. */
  private void writeStatus(QueueUnit unit, QueueUnitStatus status, KubernetesClient client) {
    new QueueUnitStatusRecorder(client).record(unit, status, clock.instant()).ifPresent(informers::wrote);
  }

  private static QueueUnitStatus statusOf(QueueUnit unit) {
    return unit.getStatus() == null
        ? new QueueUnitStatus()
        : Json.copy(unit.getStatus());
  }

  private String now() {
    return clock.instant().toString();
  }

  private static String annotation(HasMetadata object, String key) {
    return WellKnown.readQueueKey(object.getMetadata().getAnnotations(), key);
  }

  private static Map<String, String> orEmpty(Map<String, String> map) {
    return map == null ? Map.of() : map;
  }
}
