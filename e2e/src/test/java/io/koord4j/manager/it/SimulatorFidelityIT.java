package io.koord4j.manager.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.koord4j.api.WellKnown;
import io.koord4j.api.device.Device;
import io.koord4j.api.device.DeviceInfo;
import io.koord4j.api.device.DeviceSpec;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.api.quota.ElasticQuotaSpec;
import io.koord4j.quota.kube.ElasticQuotaSpecs;
import io.koord4j.scheduler.GpuFixtures;
import io.koord4j.scheduler.KoordScheduler;
import io.koord4j.simulator.placement.Policies;
import io.koord4j.simulator.replay.Queueing;
import io.koord4j.simulator.replay.TraceReplay;
import io.koord4j.simulator.replay.TraceReplay.PlacedPod;
import io.koord4j.simulator.replay.TraceReplay.TaskOutcome;
import io.koord4j.simulator.trace.NodeSpec;
import io.koord4j.simulator.trace.TaskShape;
import io.koord4j.simulator.trace.TaskSpec;
import io.koord4j.testing.LocalCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The simulator's fidelity: one small scenario, replayed by {@code simulate replay}'s engine
 * ({@link TraceReplay}) and run live by the manager and koord-scheduler (both in this JVM) on KWOK
 * GPU nodes, admits the same jobs in the same order and puts every pod on the same node and GPUs.
 *
 * <p>The scenario: four GPU nodes of different shapes with Device objects (no NVLink partitions,
 * which the simulator does not model), a quota tree of {@code nvidia.com/gpu} (a parent of 12 over
 * two leaves of min 4 and max 6), and 14 jobs of whole GPUs and GPU shares, three of them gangs,
 * arriving 10 s of virtual time apart at two priorities: jobs of a full leaf wait, and later
 * jobs of higher priority pass them.
 *
 * <p>The live run follows the simulator's virtual time one event at a time: an arrival creates the
 * job, an end (its start plus its runtime, by the live start) deletes it, and the run waits after
 * each event until the live system has admitted and placed what the simulator had by then, so
 * that a loaded machine cannot reorder the events. Some admitted jobs wait for room on the nodes,
 * holding their quota, as in the simulator. Where the live system would choose at
 * random (nodes that score alike, events or admissions at one instant), the scenario is checked
 * first to leave it no such choice.
 */
class SimulatorFidelityIT extends InProcessManagerBase {
  private static final String RUN = UUID.randomUUID().toString().substring(0, 6);
  private static final String SCHEDULER = KoordScheduler.DEFAULT_NAME + "-" + RUN;
  private static final String POOL_KEY = "koord4j.io/fidelity-it";
  private static final String JOB_NAME_LABEL = "batch.kubernetes.io/job-name";
  private static final Duration WAIT = Duration.ofMinutes(3);
  private static final String MODEL = "A100";
  private static final long GPU_MEMORY = 16L << 30;
  private static final int LOW = 10;
  private static final int HIGH = 100;

  /** GPUs, CPUs and memory (GiB) of each node. */
  private static final int[][] NODES = {{8, 8, 32}, {2, 8, 80}, {6, 20, 160}, {3, 12, 32}};

  private static KoordScheduler scheduler;
  private static final List<String> nodeNames = new ArrayList<>();

  @BeforeAll
  static void startScheduler() {
    LocalCluster.ensureCrds(client, "podgroups.scheduling.sigs.k8s.io", "devices.scheduling.koordinator.sh",
        "elasticquotas.scheduling.sigs.k8s.io", "nodemetrics.slo.koordinator.sh");
    scheduler = TestSchedulers.start(client, SCHEDULER);
  }

  @AfterAll
  static void stopScheduler() {
    if (scheduler != null) {
      scheduler.close();
    }
    nodeNames.forEach(name -> {
      client.resources(Device.class).withName(name).delete();
      client.nodes().withName(name).delete();
    });
  }

  @Test
  void theSimulatorAdmitsInTheLiveOrderAndPlacesEveryPodOnTheLiveNodeAndGpus() {
    try (TestCluster cluster = new TestCluster(client, "it-fidelity")) {
      String org = cluster.prefix + "-org";
      String a = cluster.prefix + "-a";
      String b = cluster.prefix + "-b";
      List<ElasticQuota> quotas = List.of(quota(org, "", true, 12, 12), quota(a, org, false, 4, 6),
          quota(b, org, false, 4, 6));
      try {
        quotas.forEach(quota -> client.resource(cluster.bindToNamespace(quota)).create());
        cluster.priorityClass("p" + LOW, LOW);
        cluster.priorityClass("p" + HIGH, HIGH);
        List<NodeSpec> nodes = addNodes();
        List<TaskSpec> jobs = jobs(a, b);

        TraceReplay.Result simulated = new TraceReplay(nodes, Policies.create("koord4j", List.of()), 1,
            Queueing.PRIORITY, ElasticQuotaSpecs.belowRoot(quotas)).run(jobs);
        assertUnambiguous(simulated);

        awaitQueues(a, b);
        LiveRun live = new LiveRun(cluster, jobs, simulated);
        live.run();

        assertThat(live.admissions).as("admission order, live (left) and simulated")
            .containsExactlyElementsOf(simulated.admissions());
        assertThat(live.placements).as("pods' nodes and GPUs per job, live (left) and simulated")
            .containsExactlyInAnyOrderEntriesOf(placements(simulated));
      } finally {
        // Leaves first: a parent with children cannot go.
        IntStream.iterate(quotas.size() - 1, i -> i >= 0, i -> i - 1).mapToObj(quotas::get).forEach(quota -> {
          client.resource(quota).delete();
          client.resources(Queue.class).inNamespace(Queue.DEFAULT_NAMESPACE)
              .withName(quota.getMetadata().getName()).delete();
        });
      }
    }
  }

  /**
   * The jobs, 10 s apart: whole GPUs (count) or one share of a GPU (percent), millicores and MiB
   * per pod, with the runtimes that leave no two events at one instant.
   */
  private static List<TaskSpec> jobs(String a, String b) {
    return List.of(
        share("j01", a, 50, 7000, 4096, LOW, 10, 147),
        whole("j02", a, 2, 2, 6000, 2048, LOW, 20, 56),
        whole("j03", b, 1, 4, 7000, 10240, LOW, 30, 149),
        share("j04", b, 30, 4000, 10240, LOW, 40, 164),
        whole("j05", b, 2, 1, 4000, 12288, LOW, 50, 88),
        whole("j06", a, 1, 2, 3000, 8192, LOW, 60, 138),
        whole("j07", a, 1, 1, 8000, 12288, LOW, 70, 131),
        whole("j08", b, 1, 3, 4000, 6144, LOW, 80, 63),
        whole("j09", a, 1, 2, 1000, 2048, HIGH, 90, 167),
        share("j10", a, 40, 1000, 8192, HIGH, 100, 139),
        whole("j11", b, 1, 1, 5000, 14336, HIGH, 110, 175),
        share("j12", a, 60, 3000, 8192, LOW, 120, 46),
        share("j13", b, 20, 8000, 12288, LOW, 130, 171),
        whole("j14", a, 2, 1, 6000, 14336, LOW, 140, 112));
  }

  private static TaskSpec whole(
      String name, String quota, int pods, int gpus, long milliCpu, long memoryMib, int priority, long at, long runtime) {
    TaskShape shape = new TaskShape(milliCpu, memoryMib, gpus, 1000, Set.of());
    return new TaskSpec(name, shape, at, at + runtime, at, quota, priority, pods, 0);
  }

  private static TaskSpec share(
      String name, String quota, int percent, long milliCpu, long memoryMib, int priority, long at, long runtime) {
    TaskShape shape = new TaskShape(milliCpu, memoryMib, 1, percent * 10, Set.of());
    return new TaskSpec(name, shape, at, at + runtime, at, quota, priority, 1, 0);
  }

  /**
   * What would let the live system decide otherwise than the simulator without either being wrong:
   * a pod with several best nodes; two events, admissions or placements at one instant; a job that
   * waited for room placed at the instant another is admitted (whose pods koord-scheduler may then
   * take first); a job never placed.
   */
  private static void assertUnambiguous(TraceReplay.Result simulated) {
    assertThat(simulated.outcomes()).as("jobs the simulator never started").allMatch(o -> o.start() >= 0);
    assertThat(simulated.outcomes()).as("pods with more than one best node: the live scheduler would draw one")
        .allSatisfy(o -> assertThat(o.pods()).as(o.task().name()).allMatch(pod -> pod.tiedNodes() == 1));
    List<Long> events = new ArrayList<>();
    simulated.outcomes().forEach(o -> {
      events.add(o.task().creation());
      events.add(o.start() + o.task().runtimeSeconds());
    });
    assertThat(events).as("virtual times of arrivals and ends").doesNotHaveDuplicates();
    assertThat(simulated.outcomes()).extracting(TaskOutcome::admitted).as("virtual times of admissions")
        .doesNotHaveDuplicates();
    assertThat(simulated.outcomes()).extracting(TaskOutcome::start).as("virtual times of placements")
        .doesNotHaveDuplicates();
    List<Long> admissions = simulated.outcomes().stream().map(TaskOutcome::admitted).toList();
    assertThat(simulated.outcomes()).filteredOn(o -> o.start() > o.admitted())
        .as("jobs placed after waiting for room at the instant another job is admitted")
        .noneMatch(o -> admissions.contains(o.start()));
  }

  /** Each job's pods as "node [gpus]", sorted: the pods of a job are alike. */
  private static Map<String, List<String>> placements(TraceReplay.Result simulated) {
    return simulated.outcomes().stream().collect(Collectors.toMap(
        o -> o.task().name(),
        o -> o.pods().stream().map(SimulatorFidelityIT::describe).sorted().toList()));
  }

  private static String describe(PlacedPod pod) {
    return pod.node() + " " + pod.gpus();
  }

  /** The scenario on the live cluster, event by event in the simulator's virtual time. */
  private static final class LiveRun {
    private final TestCluster cluster;
    private final List<TaskSpec> arrivals;
    private final Map<String, TaskSpec> byName;
    private final Map<String, Long> simulatedAdmissions;
    private final Map<String, Long> simulatedStarts;
    /** Virtual end of each running job, from its live start. */
    private final Map<String, Long> ends = new HashMap<>();
    final List<String> admissions = new ArrayList<>();
    final Map<String, List<String>> placements = new LinkedHashMap<>();

    LiveRun(TestCluster cluster, List<TaskSpec> jobs, TraceReplay.Result simulated) {
      this.cluster = cluster;
      this.arrivals = jobs.stream().sorted(Comparator.comparingLong(TaskSpec::creation)).toList();
      this.byName = jobs.stream().collect(Collectors.toMap(TaskSpec::name, Function.identity()));
      this.simulatedAdmissions = simulated.outcomes().stream()
          .collect(Collectors.toMap(o -> o.task().name(), TaskOutcome::admitted));
      this.simulatedStarts = simulated.outcomes().stream()
          .collect(Collectors.toMap(o -> o.task().name(), TaskOutcome::start));
    }

    /** Until every job was admitted and placed. */
    void run() {
      int next = 0;
      while (placements.size() < byName.size()) {
        long arrival = next < arrivals.size() ? arrivals.get(next).creation() : Long.MAX_VALUE;
        Map.Entry<String, Long> end = ends.entrySet().stream().min(Map.Entry.comparingByValue()).orElse(null);
        long now;
        if (end != null && end.getValue() < arrival) {
          now = end.getValue();
          end(end.getKey());
        } else {
          now = arrival;
          cluster.client.resource(job(arrivals.get(next++))).create();
        }
        settle(now);
      }
    }

    /** The job ends: deleted with its pods, which are gone before the next event. */
    private void end(String name) {
      ends.remove(name);
      cluster.client.batch().v1().jobs().inNamespace(cluster.namespace).withName(name)
          .withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
      cluster.client.pods().inNamespace(cluster.namespace).withLabel(JOB_NAME_LABEL, name).withGracePeriod(0).delete();
      await().atMost(WAIT).until(() -> pods(name).isEmpty());
    }

    /**
     * Waits until the live system has admitted the jobs the simulator had admitted by {@code now}
     * and bound the pods of those it had placed; fails at once on a job the simulator had not
     * admitted or placed yet.
     */
    private void settle(long now) {
      List<String> admitted = by(simulatedAdmissions, now);
      List<String> placed = by(simulatedStarts, now);
      try {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(() -> {
          recordAdmissions(now, admitted);
          admissions.forEach(name -> recordPlacement(name, now, placed));
          return admissions.size() == admitted.size() && placements.size() == placed.size();
        });
      } catch (ConditionTimeoutException e) {
        throw new AssertionError(String.format(
            "at virtual time %d the simulator had admitted %s and placed %s; live admitted %s and placed %s"
                + " (pods: %s)",
            now, admitted, placed, admissions, placements.keySet(), admissions.stream().collect(Collectors.toMap(
                Function.identity(), name -> pods(name).stream().map(LiveRun::describe).toList()))), e);
      }
    }

    /** The jobs whose virtual time is {@code now} or earlier. */
    private static List<String> by(Map<String, Long> times, long now) {
      return times.entrySet().stream().filter(e -> e.getValue() <= now).map(Map.Entry::getKey).sorted().toList();
    }

    private void recordAdmissions(long now, List<String> expected) {
      List<String> resumed = cluster.client.batch().v1().jobs().inNamespace(cluster.namespace).list().getItems()
          .stream()
          .filter(job -> Boolean.FALSE.equals(job.getSpec().getSuspend()))
          .map(job -> job.getMetadata().getName())
          .filter(name -> !admissions.contains(name))
          .sorted()
          .toList();
      assertThat(resumed).as("jobs live admitted by virtual time %d that the simulator had not (it had %s)",
          now, expected).isSubsetOf(expected);
      assertThat(resumed).as("jobs live admitted at once at virtual time %d", now).hasSizeLessThanOrEqualTo(1);
      admissions.addAll(resumed);
    }

    /** Once all its pods are bound with their GPUs: the job runs from {@code now}. */
    private void recordPlacement(String name, long now, List<String> expected) {
      if (placements.containsKey(name)) {
        return;
      }
      List<Pod> pods = pods(name);
      boolean placed = pods.size() == byName.get(name).pods()
          && pods.stream().allMatch(pod -> pod.getSpec().getNodeName() != null
              && annotations(pod).containsKey(WellKnown.DEVICE_ALLOCATED));
      if (placed) {
        assertThat(expected).as("jobs the simulator had placed by virtual time %d; live placed %s", now, name)
            .contains(name);
        placements.put(name, pods.stream().map(LiveRun::describe).sorted().toList());
        ends.put(name, now + byName.get(name).runtimeSeconds());
      }
    }

    private List<Pod> pods(String job) {
      return cluster.client.pods().inNamespace(cluster.namespace).withLabel(JOB_NAME_LABEL, job).list().getItems();
    }

    private static String describe(Pod pod) {
      String allocated = annotations(pod).get(WellKnown.DEVICE_ALLOCATED);
      return pod.getSpec().getNodeName() + " " + (allocated == null ? "-" : GpuFixtures.minors(allocated));
    }

    private static Map<String, String> annotations(Pod pod) {
      Map<String, String> annotations = pod.getMetadata().getAnnotations();
      return annotations == null ? Map.of() : annotations;
    }

    /** The task as a user's suspended Job: labelled with its quota, for this run's scheduler and nodes. */
    private Job job(TaskSpec task) {
      TaskShape shape = task.shape();
      Map<String, Quantity> gpus = new TreeMap<>();
      if (shape.isGpuShare()) {
        String percent = Integer.toString(shape.gpuMilli() / 10);
        gpus.put(WellKnown.GPU_CORE, new Quantity(percent));
        gpus.put(WellKnown.GPU_MEMORY_RATIO, new Quantity(percent));
      } else {
        gpus.put(WellKnown.NVIDIA_GPU, new Quantity(Integer.toString(shape.gpuCount())));
      }
      Map<String, Quantity> requests = new TreeMap<>(gpus);
      requests.put("cpu", new Quantity(shape.milliCpu() + "m"));
      requests.put("memory", new Quantity(shape.memoryMib() + "Mi"));
      Job job = cluster.jobOf(task.name(), task.queue(), task.pods(), shape.milliCpu() + "m", "1h", pod -> pod
          .withSchedulerName(SCHEDULER)
          .withPriorityClassName(cluster.prefix + "-p" + task.priority())
          .addToNodeSelector(POOL_KEY, RUN)
          .addNewToleration().withKey(POOL_KEY).withOperator("Equal").withValue(RUN).withEffect("NoSchedule")
          .endToleration()
          .editFirstContainer().editResources().withRequests(requests).withLimits(gpus).endResources()
          .endContainer());
      return job;
    }
  }

  /** An ElasticQuota of {@code nvidia.com/gpu} only, as a user writes it. */
  private static ElasticQuota quota(String name, String parent, boolean isParent, int min, int max) {
    ElasticQuota quota = new ElasticQuota();
    quota.getMetadata().setName(name);
    quota.getMetadata().setNamespace(TestCluster.QUOTA_NAMESPACE);
    quota.getMetadata().setLabels(Map.of(
        WellKnown.QUOTA_PARENT, parent, WellKnown.QUOTA_IS_PARENT, Boolean.toString(isParent)));
    ElasticQuotaSpec spec = new ElasticQuotaSpec();
    spec.setMin(Map.of(WellKnown.NVIDIA_GPU, new Quantity(Integer.toString(min))));
    spec.setMax(Map.of(WellKnown.NVIDIA_GPU, new Quantity(Integer.toString(max))));
    quota.setSpec(spec);
    return quota;
  }

  /** The manager makes a Queue for each leaf quota; jobs that came first would wait for it. */
  private static void awaitQueues(String... leaves) {
    for (String leaf : leaves) {
      await().atMost(WAIT).until(
          () -> client.resources(Queue.class).inNamespace(Queue.DEFAULT_NAMESPACE).withName(leaf).get() != null);
    }
  }

  /**
   * KWOK nodes that only this run's pods tolerate and select, each with a Device object of GPUs
   * without topology; the same nodes as the simulator reads them.
   */
  private static List<NodeSpec> addNodes() {
    List<NodeSpec> specs = new ArrayList<>();
    for (int i = 0; i < NODES.length; i++) {
      String name = "fidelity-" + RUN + "-" + i;
      int gpus = NODES[i][0];
      Map<String, Quantity> capacity = Map.of("cpu", new Quantity(Integer.toString(NODES[i][1])),
          "memory", new Quantity(NODES[i][2] + "Gi"), "pods", new Quantity("110"),
          WellKnown.NVIDIA_GPU, new Quantity(Integer.toString(gpus)));
      nodeNames.add(name);
      Node node = client.resource(new NodeBuilder()
          .withNewMetadata().withName(name)
          .addToAnnotations("kwok.x-k8s.io/node", "fake")
          .addToLabels(Map.of("kubernetes.io/hostname", name, "type", "kwok", POOL_KEY, RUN,
              WellKnown.GPU_MODEL, MODEL))
          .endMetadata()
          .withNewSpec().addNewTaint().withKey(POOL_KEY).withValue(RUN).withEffect("NoSchedule").endTaint().endSpec()
          .withNewStatus().withCapacity(capacity).withAllocatable(capacity).endStatus()
          .build()).create();
      client.resource(device(node, gpus)).create();
      specs.add(new NodeSpec(name, NODES[i][1] * 1000L, NODES[i][2] * 1024L, gpus, MODEL));
    }
    await().atMost(WAIT).until(() -> nodeNames.stream().allMatch(SimulatorFidelityIT::isReady));
    return specs;
  }

  /** Owned by its node, as the node agent writes it. */
  private static Device device(Node node, int gpus) {
    Device device = new Device();
    device.getMetadata().setName(node.getMetadata().getName());
    device.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder().withApiVersion("v1").withKind("Node")
        .withName(node.getMetadata().getName()).withUid(node.getMetadata().getUid()).build()));
    DeviceSpec spec = new DeviceSpec();
    spec.setDevices(IntStream.range(0, gpus).mapToObj(minor -> {
      DeviceInfo gpu = new DeviceInfo();
      gpu.setType(DeviceInfo.TYPE_GPU);
      gpu.setId("GPU-" + node.getMetadata().getName() + "-" + minor);
      gpu.setMinor(minor);
      gpu.setHealth(true);
      gpu.setResources(new HashMap<>(Map.of(WellKnown.GPU_CORE, new Quantity("100"),
          WellKnown.GPU_MEMORY_RATIO, new Quantity("100"), WellKnown.GPU_MEMORY, new Quantity(Long.toString(GPU_MEMORY)))));
      return gpu;
    }).toList());
    device.setSpec(spec);
    return device;
  }

  private static boolean isReady(String node) {
    Node current = client.nodes().withName(node).get();
    return current != null && current.getStatus() != null && current.getStatus().getConditions() != null
        && current.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }
}
