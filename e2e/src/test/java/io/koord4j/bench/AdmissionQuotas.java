package io.koord4j.bench;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.quota.kube.SystemQuotas;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The two-level quota tree of benchmarks B2 and B3, written once for each system: {@value #PARENTS}
 * parents with two leaves each, one leaf per queue, of the CPU that {@link Limits} gives.
 *
 * <ul>
 *   <li>koord4j: ElasticQuotas; the manager gives each a Queue of its name;
 *   <li>Kueue: a root Cohort holding what the parents may borrow beyond their mins (the sum of
 *       max − min), a Cohort per parent (nominal 0, borrowing limit max − min), a ClusterQueue per
 *       leaf (nominal = min, borrowing limit = max − min) and a LocalQueue of the leaf's name in
 *       the job namespace, as {@code kubectl koord4j import kueue} maps the other way.
 * </ul>
 *
 * The benchmark's nodes hold more than the sum of the parents' max, so in both systems the tree,
 * not the cluster, limits what runs.
 */
final class AdmissionQuotas {
  static final int PARENTS = AdmissionWorkload.QUEUES / 2;

  /** The CPU of each quota: a leaf's by its queue, a parent's by its index. */
  record Limits(int[] leafMin, int[] leafMax, int[] parentMin, int[] parentMax, String description) {
    /**
     * B2's tree, with contention: parents of min 40 / max 80 CPU, each with two leaves of min 20
     * / max 60, for a stream that asks for far more.
     */
    static Limits contended() {
      return new Limits(
          uniform(AdmissionWorkload.QUEUES, 20), uniform(AdmissionWorkload.QUEUES, 60),
          uniform(PARENTS, 40), uniform(PARENTS, 80),
          PARENTS + " parents of min 40 / max 80 CPU, each with two leaves of min 20 / max 60");
    }

    /**
     * A tree that holds the whole stream at once: each leaf's min and max are the CPU of all its
     * queue's jobs, each parent's the sum of its leaves'. No job waits for quota.
     */
    static Limits holding(AdmissionWorkload workload) {
      int[] leaves = IntStream.range(0, AdmissionWorkload.QUEUES).map(workload::cpuOfQueue).toArray();
      int[] parents = IntStream.range(0, PARENTS).map(p -> leaves[2 * p] + leaves[2 * p + 1]).toArray();
      return new Limits(leaves, leaves, parents, parents,
          PARENTS + " parents with two leaves each, every leaf's min and max the CPU of all its queue's jobs"
              + " (" + IntStream.of(leaves).sum() + " CPU in all)");
    }

    private static int[] uniform(int count, int cpu) {
      int[] limits = new int[count];
      Arrays.fill(limits, cpu);
      return limits;
    }

    int parentMaxTotal() {
      return IntStream.of(parentMax).sum();
    }
  }

  private final KubernetesClient client;
  private final String run;
  private final Limits limits;

  AdmissionQuotas(KubernetesClient client, String run, Limits limits) {
    this.client = client;
    this.run = run;
    this.limits = limits;
  }

  /** The leaf quota, Queue, ClusterQueue and LocalQueue of queue {@code q}. */
  String leaf(int queue) {
    return run + "-q" + queue;
  }

  private String parent(int parent) {
    return run + "-p" + parent;
  }

  /** The label by which a job names its queue in each system. */
  Map<String, String> koord4jLabels(int queue) {
    return Map.of(WellKnown.QUOTA_NAME, leaf(queue));
  }

  Map<String, String> kueueLabels(int queue) {
    return Map.of(WellKnown.KUEUE_QUEUE_NAME, leaf(queue));
  }

  void applyKoord4j() {
    // The manager makes this namespace when it starts, but the tree is applied before it runs.
    client.resource(new NamespaceBuilder().withNewMetadata().withName(SystemQuotas.NAMESPACE).endMetadata().build())
        .serverSideApply();
    List<String> quotas = new ArrayList<>();
    for (int p = 0; p < PARENTS; p++) {
      quotas.add(elasticQuota(parent(p), "", true, limits.parentMin()[p], limits.parentMax()[p]));
      for (int q = 2 * p; q < 2 * p + 2; q++) {
        quotas.add(elasticQuota(leaf(q), parent(p), false, limits.leafMin()[q], limits.leafMax()[q]));
      }
    }
    quotas.forEach(this::apply);
  }

  /**
   * Binds every leaf to the job namespace, as koord4j's manager and webhook require of a namespace
   * whose jobs name a quota; the leaves live in Koordinator's quota namespace.
   */
  void bindKoord4jLeaves(String namespace) {
    String patch = "{\"metadata\":{\"annotations\":{\"" + WellKnown.QUOTA_NAMESPACES + "\":\"[\\\"" + namespace
        + "\\\"]\"}}}";
    IntStream.range(0, AdmissionWorkload.QUEUES).forEach(q -> client.resources(ElasticQuota.class)
        .inNamespace(SystemQuotas.NAMESPACE).withName(leaf(q)).patch(PatchContext.of(PatchType.JSON_MERGE), patch));
  }

  /** Waits until the manager has given every leaf its Queue. */
  void awaitKoord4jQueues(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (IntStream.range(0, AdmissionWorkload.QUEUES)
        .anyMatch(q -> client.resources(Queue.class).inNamespace(Queue.DEFAULT_NAMESPACE).withName(leaf(q)).get() == null)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the manager did not create the leaves' Queues within " + timeout);
      }
      Thread.sleep(500);
    }
  }

  /** Deletes the ElasticQuotas, their Queues, and the system quotas the manager created. */
  void deleteKoord4j() {
    List<String> names = new ArrayList<>();
    IntStream.range(0, AdmissionWorkload.QUEUES).forEach(q -> names.add(leaf(q)));
    IntStream.range(0, PARENTS).forEach(p -> names.add(parent(p)));
    for (String name : names) {
      client.resources(ElasticQuota.class).inNamespace(SystemQuotas.NAMESPACE).withName(name).delete();
      client.resources(Queue.class).inNamespace(Queue.DEFAULT_NAMESPACE).withName(name).delete();
    }
    SystemQuotas.all().forEach(quota -> client.resource(quota).delete());
  }

  /** The flavor, Cohorts and ClusterQueues; Kueue must be up (its webhooks validate them). */
  void applyKueue() {
    List<String> objects = new ArrayList<>();
    objects.add(kueue("ResourceFlavor", run, null, ""));
    int[] parentRoom = IntStream.range(0, PARENTS).map(p -> limits.parentMax()[p] - limits.parentMin()[p]).toArray();
    objects.add(kueue("Cohort", run, null, resources(IntStream.of(parentRoom).sum(), null)));
    for (int p = 0; p < PARENTS; p++) {
      objects.add(kueue("Cohort", parent(p), null,
          "  parentName: " + run + "\n" + resources(0, parentRoom[p])));
      for (int q = 2 * p; q < 2 * p + 2; q++) {
        objects.add(kueue("ClusterQueue", leaf(q), null,
            "  cohortName: " + parent(p) + "\n  namespaceSelector: {}\n"
                + resources(limits.leafMin()[q], limits.leafMax()[q] - limits.leafMin()[q])));
      }
    }
    objects.forEach(this::applyWhenWebhookAnswers);
  }

  void applyKueueLocalQueues(String namespace) {
    IntStream.range(0, AdmissionWorkload.QUEUES)
        .forEach(q -> applyWhenWebhookAnswers(
            kueue("LocalQueue", leaf(q), namespace, "  clusterQueue: " + leaf(q) + "\n")));
  }

  /** Waits until Kueue reports every ClusterQueue active. */
  void awaitKueueActive(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (IntStream.range(0, AdmissionWorkload.QUEUES).anyMatch(q -> !isActive(leaf(q)))) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("Kueue did not activate the ClusterQueues within " + timeout);
      }
      Thread.sleep(500);
    }
  }

  /**
   * Deletes the ClusterQueues, Cohorts and flavor and waits until they are gone; Kueue must still
   * run, since it removes their finalizers.
   */
  void deleteKueue(Duration timeout) throws InterruptedException {
    List<HasMetadata> objects = new ArrayList<>();
    IntStream.range(0, AdmissionWorkload.QUEUES).forEach(q -> objects.add(kueueRef("ClusterQueue", leaf(q))));
    IntStream.range(0, PARENTS).forEach(p -> objects.add(kueueRef("Cohort", parent(p))));
    objects.add(kueueRef("Cohort", run));
    objects.add(kueueRef("ResourceFlavor", run));
    objects.forEach(object -> client.resource(object).delete());
    long deadline = System.nanoTime() + timeout.toNanos();
    while (objects.stream().anyMatch(object -> client.resource(object).get() != null)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("Kueue's queue objects still exist " + timeout + " after deletion");
      }
      Thread.sleep(500);
    }
  }

  private boolean isActive(String clusterQueue) {
    GenericKubernetesResource queue = client.resource(kueueRef("ClusterQueue", clusterQueue)).get();
    if (queue == null || !(queue.getAdditionalProperties().get("status") instanceof Map<?, ?> status)
        || !(status.get("conditions") instanceof List<?> conditions)) {
      return false;
    }
    return conditions.stream()
        .anyMatch(c -> c instanceof Map<?, ?> m && "Active".equals(m.get("type")) && "True".equals(m.get("status")));
  }

  private static String elasticQuota(String name, String parent, boolean isParent, int min, int max) {
    return String.join("\n",
        "apiVersion: scheduling.sigs.k8s.io/v1alpha1",
        "kind: ElasticQuota",
        "metadata:",
        "  name: " + name,
        "  namespace: " + SystemQuotas.NAMESPACE,
        "  labels:",
        "    " + WellKnown.QUOTA_PARENT + ": \"" + parent + "\"",
        "    " + WellKnown.QUOTA_IS_PARENT + ": \"" + isParent + "\"",
        "spec:",
        "  min: {cpu: \"" + min + "\"}",
        "  max: {cpu: \"" + max + "\"}",
        "");
  }

  /** A ResourceGroup of cpu in the run's flavor; {@code borrowingLimit} null for none. */
  private String resources(int nominal, Integer borrowingLimit) {
    return "  resourceGroups:\n"
        + "  - coveredResources: [cpu]\n"
        + "    flavors:\n"
        + "    - name: " + run + "\n"
        + "      resources:\n"
        + "      - {name: cpu, nominalQuota: \"" + nominal + "\""
        + (borrowingLimit == null ? "" : ", borrowingLimit: \"" + borrowingLimit + "\"")
        + "}\n";
  }

  private static String kueue(String kind, String name, String namespace, String spec) {
    return "apiVersion: kueue.x-k8s.io/v1beta2\nkind: " + kind + "\nmetadata:\n  name: " + name + "\n"
        + (namespace == null ? "" : "  namespace: " + namespace + "\n")
        + (spec.isEmpty() ? "" : "spec:\n" + spec);
  }

  private static GenericKubernetesResource kueueRef(String kind, String name) {
    return Serialization.unmarshal(kueue(kind, name, null, ""), GenericKubernetesResource.class);
  }

  private void apply(String yaml) {
    client.resource(Serialization.unmarshal(yaml, GenericKubernetesResource.class))
        .fieldManager("koord4j-bench").forceConflicts().serverSideApply();
  }

  /** Kueue's webhooks may refuse calls for a moment after it starts. */
  private void applyWhenWebhookAnswers(String yaml) {
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (true) {
      try {
        apply(yaml);
        return;
      } catch (RuntimeException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        sleep();
      }
    }
  }

  private static void sleep() {
    try {
      Thread.sleep(1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
