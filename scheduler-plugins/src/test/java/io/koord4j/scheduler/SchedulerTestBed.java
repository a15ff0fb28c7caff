package io.koord4j.scheduler;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.testing.LocalCluster;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.awaitility.core.ConditionTimeoutException;

/**
 * What scheduler integration tests share on the real local control plane: a namespace of their
 * own, and KWOK nodes that carry a label and a taint unique to the run, so that only the test's
 * pods (which select and tolerate them) land there. Closing deletes both.
 */
public final class SchedulerTestBed implements AutoCloseable {

  private static final String POOL_KEY = "koord4j.io/scheduler-it";
  private static final String FIELD_MANAGER = "koord4j-scheduler-it";
  /** The CRDs the scheduler watches. */
  private static final String[] CRDS = {
    "elasticquotas.scheduling.sigs.k8s.io",
    "podgroups.scheduling.sigs.k8s.io",
    "devices.scheduling.koordinator.sh",
    "nodemetrics.slo.koordinator.sh"
  };

  private final String run = UUID.randomUUID().toString().substring(0, 6);
  private final String namespace;
  private final KubernetesClient client;
  private final List<String> nodes = new ArrayList<>();
  /** Stopped last-started first. */
  private final Deque<AutoCloseable> started = new ArrayDeque<>();
  private Supplier<String> schedulerState = () -> "";

  /** @param namespacePrefix names the test's namespace, which gets a suffix unique to the run */
  public SchedulerTestBed(String namespacePrefix) {
    this.namespace = namespacePrefix + "-" + run;
    this.client = LocalCluster.client();
    LocalCluster.ensureCrds(client, CRDS);
    client
        .resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
        .fieldManager(FIELD_MANAGER)
        .serverSideApply();
  }

  public KubernetesClient client() {
    return client;
  }

  public String namespace() {
    return namespace;
  }

  /** Unique to this run, for names of cluster-scoped objects. */
  public String run() {
    return run;
  }

  /** koord-scheduler in this process under {@code schedulerName}, retrying quickly; stops on close. */
  public KoordScheduler startScheduler(String schedulerName, MeterRegistry registry) {
    KoordScheduler scheduler =
        new KoordScheduler(
            client,
            registry,
            KoordScheduler.Options.defaults()
                .withSchedulerName(schedulerName)
                .withBackoff(Duration.ofMillis(200), Duration.ofSeconds(2)));
    started.push(scheduler);
    scheduler.start();
    return scheduler;
  }

  /** Closes {@code resource} (e.g. a process or server of the test) before the bed is removed. */
  public <T extends AutoCloseable> T closeLater(T resource) {
    started.push(resource);
    return resource;
  }

  /**
   * KWOK nodes labelled into {@code pool} and tainted for this run only.
   *
   * @param flags more {@code cluster.sh nodes} flags, e.g. {@code --gpus 8}
   */
  public List<String> addNodes(String pool, int count, String prefix, String... flags) {
    List<String> names = IntStream.range(0, count).mapToObj(i -> prefix + "-" + i).toList();
    // Known before they are created, so that closing deletes them even if creating them fails.
    nodes.addAll(names);
    List<String> args =
        new ArrayList<>(List.of("nodes", "--count", Integer.toString(count), "--prefix", prefix));
    args.addAll(List.of(flags));
    try {
      LocalCluster.script(args.toArray(String[]::new));
    } catch (IllegalStateException e) {
      // On a loaded machine KWOK can take longer than the script waits; nodes it created still come.
      if (!names.stream().allMatch(name -> client.nodes().withName(name).get() != null)) {
        throw e;
      }
      await().atMost(Duration.ofMinutes(3)).until(() -> names.stream().allMatch(this::isReady));
    }
    // A merge patch carries no resourceVersion, so KWOK's status updates cannot conflict with it.
    String patch =
        String.format(
            "{\"metadata\":{\"labels\":{\"%s\":\"%s-%s\"}},"
                + "\"spec\":{\"taints\":[{\"key\":\"%s\",\"value\":\"%s\",\"effect\":\"NoSchedule\"}]}}",
            POOL_KEY, run, pool, POOL_KEY, run);
    for (String name : names) {
      client.nodes().withName(name).patch(PatchContext.of(PatchType.JSON_MERGE), patch);
    }
    return names;
  }

  /** A pod of {@code schedulerName} for the nodes of {@code pool}, asking for {@code cpu}. */
  public Pod pod(String name, String schedulerName, String pool, String cpu) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(namespace)
        .endMetadata()
        .withNewSpec()
        .withSchedulerName(schedulerName)
        .withNodeSelector(Map.of(POOL_KEY, run + "-" + pool))
        .addNewToleration()
        .withKey(POOL_KEY)
        .withOperator("Equal")
        .withValue(run)
        .withEffect("NoSchedule")
        .endToleration()
        .addNewContainer()
        .withName("main")
        .withImage("busybox")
        .withNewResources()
        .withRequests(Map.of("cpu", new Quantity(cpu), "memory", new Quantity("1Gi")))
        .endResources()
        .endContainer()
        .endSpec()
        .build();
  }

  /** Generous: on a machine loaded by other work binding can take a while. */
  public Pod awaitBound(String name) {
    awaitOrExplain(name, "bound", () -> nodeOf(name).isPresent());
    return get(name);
  }

  /**
   * The message of the pod's Unschedulable condition once the scheduler has written it.
   *
   * @param within generous: on a loaded machine a scheduling attempt can take a while
   */
  public String awaitUnschedulable(String name, Duration within) {
    awaitOrExplain(name, "unschedulable", within, () -> unschedulableMessage(name).isPresent());
    return unschedulableMessage(name).orElseThrow();
  }

  /**
   * Adds what a failed wait prints about the scheduler under test (e.g. whether its process still
   * runs, and its log's last lines), so that a wait that times out explains itself.
   */
  public void explainWaitsWith(Supplier<String> schedulerState) {
    this.schedulerState = schedulerState;
  }

  private void awaitOrExplain(String name, String what, BooleanSupplier reached) {
    awaitOrExplain(name, what, Duration.ofSeconds(90), reached);
  }

  private void awaitOrExplain(String name, String what, Duration within, BooleanSupplier reached) {
    try {
      await().atMost(within).until(reached::getAsBoolean);
    } catch (ConditionTimeoutException e) {
      Pod pod = get(name);
      throw new AssertionError(
          "pod " + namespace + "/" + name + " not " + what + " within " + within.toSeconds() + " s; its status: "
              + (pod == null ? "(pod gone)" : Serialization.asJson(pod.getStatus()))
              + "\n" + schedulerState.get(),
          e);
    }
  }

  public Pod get(String name) {
    return client.pods().inNamespace(namespace).withName(name).get();
  }

  public Optional<String> nodeOf(String name) {
    Pod pod = get(name);
    return Optional.ofNullable(pod == null ? null : pod.getSpec().getNodeName()).filter(n -> !n.isEmpty());
  }

  private boolean isReady(String node) {
    Node current = client.nodes().withName(node).get();
    return current != null
        && current.getStatus() != null
        && current.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  /** The message of the pod's {@code PodScheduled=False} condition with reason Unschedulable. */
  public Optional<String> unschedulableMessage(String name) {
    Pod pod = get(name);
    if (pod == null || pod.getStatus() == null) {
      return Optional.empty();
    }
    return pod.getStatus().getConditions().stream()
        .filter(c -> "PodScheduled".equals(c.getType()) && "False".equals(c.getStatus()))
        .filter(c -> "Unschedulable".equals(c.getReason()))
        .map(PodCondition::getMessage)
        .findFirst();
  }

  @Override
  public void close() {
    for (AutoCloseable resource : started) {
      try {
        resource.close();
      } catch (Exception e) {
        throw new IllegalStateException("cannot stop " + resource, e);
      }
    }
    client.namespaces().withName(namespace).delete();
    nodes.forEach(name -> client.nodes().withName(name).delete());
    client.close();
  }
}
