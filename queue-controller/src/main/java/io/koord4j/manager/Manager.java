package io.koord4j.manager;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.RegisteredController;
import io.javaoperatorsdk.operator.api.config.Cloner;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetrics;
import io.javaoperatorsdk.operator.processing.Controller;
import io.javaoperatorsdk.operator.processing.event.source.informer.ManagedInformerEventSource;
import io.javaoperatorsdk.operator.processing.retry.GenericRetry;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.kueue.CheckSettings;
import io.koord4j.kueue.KueueAdmissionCheckController;
import io.koord4j.manager.admission.AdmissionContext;
import io.koord4j.manager.admission.AdmissionLoop;
import io.koord4j.manager.admission.AdmissionSnapshot;
import io.koord4j.manager.admission.AdmissionSnapshots;
import io.koord4j.manager.admission.SnapshotChanges;
import io.koord4j.manager.admission.UnitAdmissionChecks;
import io.koord4j.manager.admission.WaitForPodsReadySettings;
import io.koord4j.manager.admission.WriteRate;
import io.koord4j.manager.jobs.JobIntegrations;
import io.koord4j.manager.jobs.JobReconciler;
import io.koord4j.manager.metrics.ManagerMetrics;
import io.koord4j.manager.noderesource.BatchResourceReconciler;
import io.koord4j.manager.nodeslo.NodeSloReconciler;
import io.koord4j.manager.queue.QueueReconciler;
import io.koord4j.manager.quota.ElasticQuotaReconciler;
import io.koord4j.manager.support.WritePacing;
import io.koord4j.manager.quota.QuotaProfileReconciler;
import io.koord4j.manager.quota.SystemQuotaKeeper;
import io.koord4j.manager.support.InformerReconciler;
import io.koord4j.manager.support.SharedInformers;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The queue controller while it leads: the admission loop, the gang-feasibility checks its queues
 * name, and the reconcilers of jobs, quotas and queues, all against one cluster.
 */
public final class Manager implements LeaderControllers {
  private static final Logger LOG = LoggerFactory.getLogger(Manager.class);

  /** Conflicts are normal under load: retry soon, and keep trying. */
  private static final GenericRetry RETRY =
      new GenericRetry()
          .setInitialInterval(100)
          .setIntervalMultiplier(2)
          .setMaxInterval(10_000)
          .withoutMaxAttempts();

  /**
   * Job reconcilers get the informer's own job, not a copy: they only read it, and every change
   * they write starts from an adapter's copy ({@code AdapterInputTest}). Copying each job through
   * JSON before each reconcile was 7.6 % of a busy manager's CPU samples.
   */
  private static final Cloner INFORMERS_OWN_JOB =
      new Cloner() {
        @Override
        public <R extends HasMetadata> R clone(R object) {
          return object;
        }
      };

  private final KubernetesClient client;
  /** One informer per kind for the loop, the check and the job reconcilers' QueueUnit events. */
  private final SharedInformers informers;
  private final AdmissionSnapshots snapshots;
  private final AdmissionLoop loop;
  /** Publish the loop's figures on ElasticQuotas and Queues, read through the shared informers. */
  private final List<InformerReconciler<?>> publishers = new ArrayList<>();
  private final Operator operator;
  /** Opt-in: batch resources on the nodes, read through the shared informers. */
  private final Optional<BatchResourceReconciler> batchResources;
  /** With the batch resources: every node's NodeSLO, read through the shared informers. */
  private final Optional<NodeSloReconciler> nodeSlos;
  /** Root quotas of ElasticQuotaProfiles, when the cluster serves them. */
  private final Optional<QuotaProfileReconciler> quotaProfiles;
  /** Answers the gang-feasibility checks that Queues name, for their units. */
  private KueueAdmissionCheckController<QueueUnit> unitChecks;
  private SystemQuotaKeeper systemQuotas;

  /** @param leading whether this replica surely still leads, checked before admission writes */
  public Manager(KubernetesClient client, MeterRegistry registry, BooleanSupplier leading) {
    this.client = client;
    this.informers = new SharedInformers(client);
    Clock clock = Clock.systemUTC();
    AdmissionSnapshots snapshots = new AdmissionSnapshots();
    this.loop =
        new AdmissionLoop(
            client, informers, snapshots,
            new AdmissionContext(
                clock, leading, new ManagerMetrics(registry, snapshots), WriteRate.from(System.getenv()),
                WaitForPodsReadySettings.from(System.getenv())));
    this.operator =
        new Operator(
            overrider ->
                overrider
                    .withKubernetesClient(client)
                    .withCloseClientOnStop(false)
                    // Reconciliation counts and timings per controller, not per resource: jobs are many.
                    .withMetrics(MicrometerMetrics.withoutPerResourceMetrics(registry))
                    .withUseSSAToPatchPrimaryResource(false)
                    .withResourceCloner(INFORMERS_OWN_JOB));
    for (JobReconciler<?> jobs : JobIntegrations.builtIn(clock, informers)) {
      // A watch on a kind the cluster does not serve would keep the manager from starting.
      if (client.supports(jobs.jobType())) {
        register(jobs);
      } else {
        LOG.info(
            "{} is not installed; its jobs are not queued until the manager restarts after its CRD is",
            HasMetadata.getFullResourceName(jobs.jobType()));
      }
    }
    this.batchResources = BatchResourceReconciler.forCluster(client, informers, System.getenv(), clock);
    this.nodeSlos = NodeSloReconciler.forCluster(client, informers, System.getenv());
    this.quotaProfiles = QuotaProfileReconciler.forCluster(client, informers);
    this.snapshots = snapshots;
  }

  /** Rebuilds the admission state from the cluster, then starts reconciling. */
  public void start() throws InterruptedException {
    loop.start();
    systemQuotas = new SystemQuotaKeeper(client, informers);
    systemQuotas.start();
    unitChecks = KueueAdmissionCheckController.start(
        client, informers, new UnitAdmissionChecks(), CheckSettings.from(System.getenv()));
    publishers.add(
        publish(
            "elasticquotas",
            ElasticQuota.class,
            new ElasticQuotaReconciler(client, snapshots, informers.of(Queue.class).getStore()::getByKey, pacing())::reconcile,
            ElasticQuotaReconciler::figures));
    publishers.add(
        publish(
            "queues",
            Queue.class,
            new QueueReconciler(client, snapshots, pacing())::reconcile,
            QueueReconciler::positions));
    batchResources.ifPresent(BatchResourceReconciler::start);
    nodeSlos.ifPresent(NodeSloReconciler::start);
    quotaProfiles.ifPresent(QuotaProfileReconciler::start);
    operator.start();
    List<String> watched = watchedKinds();
    LOG.info("watches opened: {} for {} kinds {}", watched.size(), Set.copyOf(watched).size(), watched);
  }

  /**
   * Every kind this manager lists and watches, once per watch: the shared informers' kinds and
   * the kinds of the informers JOSDK runs for its controllers (each primary, then the secondary
   * sources). A kind named twice is watched twice.
   */
  public List<String> watchedKinds() {
    List<String> kinds = new ArrayList<>(informers.watchedKinds());
    for (RegisteredController<?> registered : operator.getRegisteredControllers()) {
      kinds.add(HasMetadata.getFullResourceName(registered.getConfiguration().getResourceClass()));
      ((Controller<?>) registered)
          .getEventSourceManager()
          .getEventSourcesStream()
          .filter(ManagedInformerEventSource.class::isInstance)
          .map(source -> HasMetadata.getFullResourceName(
              source.resourceType().asSubclass(HasMetadata.class)))
          .forEach(kinds::add);
    }
    return kinds;
  }

  @Override
  public Optional<SharedInformers> informers() {
    return Optional.of(informers);
  }

  /** The gang-feasibility checks answered for QueueUnits, once started. */
  public KueueAdmissionCheckController<QueueUnit> unitChecks() {
    return unitChecks;
  }

  /** Stops everything; the admission loop has stopped when this returns. */
  @Override
  public void close() {
    operator.stop();
    batchResources.ifPresent(BatchResourceReconciler::close);
    nodeSlos.ifPresent(NodeSloReconciler::close);
    quotaProfiles.ifPresent(QuotaProfileReconciler::close);
    publishers.forEach(InformerReconciler::close);
    if (unitChecks != null) {
      unitChecks.close();
    }
    if (systemQuotas != null) {
      systemQuotas.close();
    }
    loop.close();
    informers.close();
  }

  private static WritePacing pacing() {
    return new WritePacing(WritePacing.INTERVAL, Clock.systemUTC());
  }

  /** Reconciles each object of the kind on its changes and when its part of the snapshot changes. */
  private <P extends HasMetadata> InformerReconciler<P> publish(
      String name,
      Class<P> kind,
      InformerReconciler.Repeating<P> reconcile,
      Function<AdmissionSnapshot, Map<String, ?>> parts) {
    InformerReconciler<P> reconciler = new InformerReconciler<>(name, informers, kind, reconcile);
    reconciler.start();
    SnapshotChanges.follow(snapshots, parts, reconciler::trigger);
    return reconciler;
  }

  /**
   * Not generation-aware: a job's progress lives outside its spec. Its jobs are listed in pages as
   * the shared informers are (see {@link SharedInformers#LIST_PAGE}), so that a replica that starts
   * leading reads them as they are, not from the API server's possibly lagging cache.
   */
  private <T extends HasMetadata> void register(JobReconciler<T> jobs) {
    operator.register(
        jobs,
        config ->
            config.withName(jobs.name()).withRetry(RETRY).withGenerationAware(false)
                .withInformerListLimit(SharedInformers.LIST_PAGE));
  }
}
