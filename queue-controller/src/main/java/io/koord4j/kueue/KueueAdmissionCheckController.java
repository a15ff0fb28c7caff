package io.koord4j.kueue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.koord4j.api.check.GangFeasibilityParameters;
import io.koord4j.api.device.Device;
import io.koord4j.api.kueue.AdmissionCheck;
import io.koord4j.api.kueue.KueueObject;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.manager.support.SharedInformers;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the Kueue AdmissionChecks whose controllerName is {@code koord4j.io/gang-feasibility}:
 * marks them Active (or not, naming the fault in their parameters) and answers, for each workload
 * holding quota, whether all its pods can be placed at once. Informers on workloads, checks, their
 * parameters, nodes, pods, Devices and ElasticQuotas feed one thread that re-decides every waiting
 * workload after any change; the decisions themselves are pure ({@link DecisionPass}).
 */
public final class KueueAdmissionCheckController<T extends HasMetadata> implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KueueAdmissionCheckController.class);
  /** Changes arriving together, such as the pods of one job, are decided in one pass. */
  private static final Duration COALESCE = Duration.ofMillis(200);
  private static final Duration AFTER_FAILURE = Duration.ofSeconds(5);

  private final KubernetesClient client;
  private final SharedInformers informers;
  /** Whether this controller made its informers, and so closes them with itself. */
  private final boolean ownsInformers;
  private final CheckedObjects<T> checked;
  private final CheckSettings settings;
  private final Clock clock = Clock.systemUTC();
  private final ScheduledExecutorService loop =
      Executors.newSingleThreadScheduledExecutor(task -> new Thread(task, "kueue-gang-feasibility"));
  private final AtomicBoolean passQueued = new AtomicBoolean();
  private final AtomicLong decisionPasses = new AtomicLong();
  private final SharedIndexInformer<GenericKubernetesResource> checks;
  private final SharedIndexInformer<T> workloads;
  private final SharedIndexInformer<Node> nodes;
  private final SharedIndexInformer<Pod> pods;
  private final SharedIndexInformer<Device> devices;
  private final SharedIndexInformer<GangFeasibilityParameters> parameters;
  private final SharedIndexInformer<ElasticQuota> quotas;
  private List<SharedIndexInformer<?>> started = List.of();
  private final AnyChange onChange = new AnyChange(this::requestPass);
  /** Passes wait until every informer has listed: a half-seen cluster could look too small. */
  private volatile boolean listed;
  private volatile boolean closed;
  /** Touched only on the loop thread. */
  private ScheduledFuture<?> wakeUp;

  private KueueAdmissionCheckController(
      KubernetesClient client,
      SharedInformers informers,
      boolean ownsInformers,
      CheckedObjects<T> checked,
      CheckSettings settings) {
    this.client = client;
    this.informers = informers;
    this.ownsInformers = ownsInformers;
    this.checked = checked;
    this.settings = settings;
    this.checks = informers.of(AdmissionCheck.CONTEXT);
    this.workloads = checked.informer(informers);
    this.nodes = informers.of(Node.class);
    this.pods = informers.of(Pod.class);
    this.devices = informers.of(Device.class);
    this.parameters = informers.of(GangFeasibilityParameters.class);
    this.quotas = informers.of(ElasticQuota.class);
  }

  /** Kinds the cluster does not serve are left out: nothing of them can exist. */
  private List<SharedIndexInformer<?>> informers() {
    List<SharedIndexInformer<?>> all = new ArrayList<>(List.of(workloads, nodes, pods));
    if (client.getApiGroup(KueueObject.GROUP) != null) {
      all.add(checks);
    }
    if (client.supports(Device.class)) {
      all.add(devices);
    }
    if (client.supports(GangFeasibilityParameters.class)) {
      all.add(parameters);
    }
    if (client.supports(ElasticQuota.class)) {
      all.add(quotas);
    }
    return all;
  }

  /** Lists everything before the first pass, so that it already sees the whole cluster. */
  private void run() {
    started = informers();
    started.forEach(informer -> {
      informer.addEventHandler(onChange);
      informers.start(informer).join();
    });
    listed = true;
    requestPass();
  }

  /** Answers for Kueue's workloads, with the settings of the environment ({@link CheckSettings#from}). */
  public static KueueAdmissionCheckController<GenericKubernetesResource> start(KubernetesClient client) {
    return start(client, CheckSettings.from(System.getenv()));
  }

  /** Answers for Kueue's workloads. */
  public static KueueAdmissionCheckController<GenericKubernetesResource> start(
      KubernetesClient client, CheckSettings settings) {
    return start(client, CheckedObjects.kueueWorkloads(), settings);
  }

  /**
   * Starts the informers (returning once they have listed) and a first pass over the cluster.
   * Without Kueue's API no AdmissionCheck exists, so nothing is decided until the controller
   * restarts after Kueue's CRDs are installed.
   */
  public static <T extends HasMetadata> KueueAdmissionCheckController<T> start(
      KubernetesClient client, CheckedObjects<T> checked, CheckSettings settings) {
    return start(client, new SharedInformers(client), true, checked, settings);
  }

  /** As {@link #start(KubernetesClient, CheckedObjects, CheckSettings)}, reading the process's shared informers. */
  public static <T extends HasMetadata> KueueAdmissionCheckController<T> start(
      KubernetesClient client, SharedInformers informers, CheckedObjects<T> checked, CheckSettings settings) {
    return start(client, informers, false, checked, settings);
  }

  private static <T extends HasMetadata> KueueAdmissionCheckController<T> start(
      KubernetesClient client,
      SharedInformers informers,
      boolean ownsInformers,
      CheckedObjects<T> checked,
      CheckSettings settings) {
    KueueAdmissionCheckController<T> controller =
        new KueueAdmissionCheckController<>(client, informers, ownsInformers, checked, settings);
    controller.run();
    LOG.info("admission checks {} answer for {} (Retry after {} s Pending, requeue after {} s)",
        AdmissionCheck.KOORD4J_CONTROLLER, checked.description(), settings.waitBeforeRetry().toSeconds(),
        settings.requeueAfterSeconds());
    return controller;
  }

  /**
   * Passes completed since start that judged the waiting objects and wrote what changed: one
   * more proves that every object waiting before it began has been decided again.
   */
  public long decisionPasses() {
    return decisionPasses.get();
  }

  @Override
  public void close() {
    closed = true;
    started.forEach(informer -> informer.removeEventHandler(onChange));
    if (ownsInformers) {
      informers.close();
    }
    loop.shutdownNow();
    try {
      loop.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void requestPass() {
    if (listed && !closed && passQueued.compareAndSet(false, true)) {
      loop.schedule(this::pass, COALESCE.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  private void pass() {
    passQueued.set(false);
    try {
      Instant now = clock.instant();
      Map<String, CheckConfig> configs = activateOurChecks(now);
      if (configs.isEmpty()) {
        // Nothing can wait on a check of ours: spares a look at every object on every change.
        return;
      }
      List<WaitingWorkload> waiting = workloads.getStore().list().stream()
          .map(object -> checked.waiting(object, configs.keySet()))
          .flatMap(Optional::stream)
          .toList();
      if (waiting.isEmpty()) {
        return;
      }
      Map<String, Device> devicesByNode = devices.getStore().list().stream()
          .collect(Collectors.toMap(device -> device.getMetadata().getName(), Function.identity()));
      List<Pod> allPods = pods.getStore().list();
      ClusterSnapshot cluster = ClusterSnapshot.of(nodes.getStore().list(), allPods, devicesByNode);
      QuotaRoom quotaRoom = checked.checksQuota()
          ? QuotaRoom.of(quotas.getStore().list(), nodes.getStore().list(), allPods)
          : QuotaRoom.UNCHECKED;
      DecisionPass.Result result = DecisionPass.run(cluster, quotaRoom, waiting, configs, now);
      result.writes().forEach(write -> write(write, now));
      result.nextPass().ifPresent(at -> wakeUpAt(at, now));
      decisionPasses.incrementAndGet();
    } catch (RuntimeException e) {
      LOG.warn("Kueue admission check pass failed; trying again in {} s", AFTER_FAILURE.toSeconds(), e);
      wakeUpAt(clock.instant().plus(AFTER_FAILURE), clock.instant());
    }
  }

  /**
   * Sets the Active condition of each of our checks from its parameters (if this controller
   * answers Kueue) and returns the configs of the usable ones, by name.
   */
  private Map<String, CheckConfig> activateOurChecks(Instant now) {
    Map<String, GangFeasibilityParameters> parametersByName = parameters.getStore().list().stream()
        .collect(Collectors.toMap(found -> found.getMetadata().getName(), Function.identity()));
    Map<String, CheckConfig> configs = new HashMap<>();
    List<AdmissionCheck> ours = checks.getStore().list().stream()
        .map(resource -> KueueObject.from(resource, AdmissionCheck.class))
        .filter(check -> check.getSpec() != null
            && AdmissionCheck.KOORD4J_CONTROLLER.equals(check.getSpec().getControllerName()))
        .toList();
    for (AdmissionCheck check : ours) {
      String name = check.getMetadata().getName();
      String problem = null;
      try {
        configs.put(name, CheckConfig.of(check, parametersByName, settings));
      } catch (IllegalArgumentException e) {
        problem = e.getMessage();
      }
      if (checked.marksChecksActive() && !StatusApply.isActiveAsWanted(check, problem)) {
        GenericKubernetesResource body = StatusApply.activeCondition(check, problem, now);
        client.genericKubernetesResources(AdmissionCheck.CONTEXT).resource(body).subresource("status")
            .patch(KueueWorkloads.APPLY, body);
        LOG.info("AdmissionCheck {} is {}", name, problem == null ? "Active" : "not Active: " + problem);
      }
    }
    return configs;
  }

  private void write(DecisionPass.Write write, Instant now) {
    T current = workloads.getStore().getByKey(write.namespace() + "/" + write.name());
    if (current == null) {
      return;
    }
    checked.write(client, current, write.checks(), now);
    write.checks().forEach(check -> LOG.info("{} {}/{}: check {} {}: {}", checked.description(),
        write.namespace(), write.name(), check.getName(), check.getState(), check.getMessage()));
  }

  /** Keeps the earliest pending wake-up. */
  private void wakeUpAt(Instant at, Instant now) {
    if (closed) {
      return;
    }
    long delay = Math.max(Duration.between(now, at).toMillis(), COALESCE.toMillis());
    if (wakeUp != null && !wakeUp.isDone() && wakeUp.getDelay(TimeUnit.MILLISECONDS) <= delay) {
      return;
    }
    if (wakeUp != null) {
      wakeUp.cancel(false);
    }
    wakeUp = loop.schedule(this::requestPass, delay, TimeUnit.MILLISECONDS);
  }

  /** Every add, update and delete asks for a pass; what changed is read from the stores. */
  private record AnyChange(Runnable onChange) implements ResourceEventHandler<Object> {
    @Override
    public void onAdd(Object resource) {
      onChange.run();
    }

    @Override
    public void onUpdate(Object before, Object after) {
      onChange.run();
    }

    @Override
    public void onDelete(Object resource, boolean finalStateUnknown) {
      onChange.run();
    }
  }
}
