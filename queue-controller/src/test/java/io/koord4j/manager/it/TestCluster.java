package io.koord4j.manager.it;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueAdmissionCheck;
import io.koord4j.api.queue.QueueSpec;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitSpec;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.api.quota.ElasticQuotaSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.UnaryOperator;

/** Names, quotas and jobs of one test, and their cleanup. */
public final class TestCluster implements AutoCloseable {
  public static final String QUOTA_NAMESPACE = "koordinator-system";

  public final KubernetesClient client;
  public final String prefix;
  public final String namespace;
  private final List<String> quotas = new ArrayList<>();
  private final List<String> priorityClasses = new ArrayList<>();

  public TestCluster(KubernetesClient client, String test) {
    this.client = client;
    this.prefix = test + "-" + Integer.toString(ThreadLocalRandom.current().nextInt(1 << 20), 36);
    this.namespace = prefix;
    namespace(namespace);
    namespace(QUOTA_NAMESPACE);
  }

  /**
   * A CPU-only quota named {@code <prefix>-<name>}, bound to the test's namespace; parent null
   * means a top-level quota.
   */
  public String quota(String name, String parent, boolean isParent, String cpu, String maxCpu) {
    return createQuota(prefix + "-" + name, parent, isParent, cpu, maxCpu, namespace);
  }

  /**
   * A top-level CPU-only quota named {@code <prefix>-<name>} and bound to another namespace of
   * that name only: another team's, which the test's jobs may not charge.
   */
  public String othersQuota(String name, String cpu) {
    return createQuota(prefix + "-" + name, null, false, cpu, cpu, prefix + "-" + name);
  }

  /**
   * A top-level CPU-only quota named like the test's namespace and bound to it, which serves its
   * unlabelled jobs.
   */
  String namespaceQuota(String cpu) {
    return createQuota(namespace, null, false, cpu, cpu, namespace);
  }

  private String createQuota(
      String quota, String parent, boolean isParent, String cpu, String maxCpu, String boundNamespace) {
    ElasticQuota eq = new ElasticQuota();
    eq.getMetadata().setName(quota);
    eq.getMetadata().setNamespace(QUOTA_NAMESPACE);
    eq.getMetadata()
        .setLabels(
            Map.of(
                WellKnown.QUOTA_PARENT, parent == null ? "" : parent,
                WellKnown.QUOTA_IS_PARENT, Boolean.toString(isParent)));
    ElasticQuotaSpec spec = new ElasticQuotaSpec();
    spec.setMin(Map.of("cpu", new Quantity(cpu)));
    spec.setMax(Map.of("cpu", new Quantity(maxCpu)));
    eq.setSpec(spec);
    client.resource(bindTo(boundNamespace, eq)).create();
    quotas.add(quota);
    return quota;
  }

  /**
   * Binds the quota to the test's namespace with the namespaces annotation: the quotas live in
   * {@value #QUOTA_NAMESPACE}, and the test's jobs may charge only quotas bound to theirs.
   */
  public ElasticQuota bindToNamespace(ElasticQuota quota) {
    return bindTo(namespace, quota);
  }

  private static ElasticQuota bindTo(String boundNamespace, ElasticQuota quota) {
    quota.getMetadata().setAnnotations(Map.of(WellKnown.QUOTA_NAMESPACES, "[\"" + boundNamespace + "\"]"));
    return quota;
  }

  /**
   * A Queue for the quota {@code <prefix>-<name>}, created before the quota as koord-queue users
   * do, so that the quota controller keeps it as it is.
   */
  void queue(String name, String policy) {
    queue(name, policy, List.of());
  }

  /** As above, whose units must pass the named Kueue AdmissionChecks before their jobs start. */
  void queue(String name, String policy, List<String> admissionChecks) {
    queue(name, policy, admissionChecks, Map.of());
  }

  /** A Priority queue as above, with koord-queue's {@code queue-args} (YAML). */
  void queueWithArgs(String name, String queueArgs) {
    queue(name, "Priority", List.of(), Map.of(WellKnown.QUEUE_ARGS, queueArgs));
  }

  private void queue(String name, String policy, List<String> admissionChecks, Map<String, String> annotations) {
    Queue queue = new Queue();
    queue.getMetadata().setName(prefix + "-" + name);
    queue.getMetadata().setNamespace(Queue.DEFAULT_NAMESPACE);
    queue.getMetadata().setAnnotations(annotations.isEmpty() ? null : annotations);
    queue.setSpec(new QueueSpec());
    queue.getSpec().setQueuePolicy(policy);
    queue.getSpec().setAdmissionChecks(admissionChecks.isEmpty() ? null : admissionChecks.stream().map(check -> {
      QueueAdmissionCheck admissionCheck = new QueueAdmissionCheck();
      admissionCheck.setName(check);
      return admissionCheck;
    }).toList());
    namespace(Queue.DEFAULT_NAMESPACE);
    client.resource(queue).create();
  }

  /** A PriorityClass named {@code <prefix>-<name>}. */
  public String priorityClass(String name, int value) {
    String priorityClass = prefix + "-" + name;
    client.resource(
            new PriorityClassBuilder()
                .withNewMetadata()
                .withName(priorityClass)
                .endMetadata()
                .withValue(value)
                .build())
        .create();
    priorityClasses.add(priorityClass);
    return priorityClass;
  }

  /** A suspended Job of {@code pods} pods asking {@code cpu} each, in {@code quota}. */
  Job job(String name, String quota, int pods, String cpu, int priority) {
    return job(name, quota, pods, cpu, priority, "3s");
  }

  /** As above, whose pods run for {@code runFor} (a KWOK delay, e.g. {@code 60s}). */
  public Job job(String name, String quota, int pods, String cpu, int priority, String runFor) {
    return client.resource(jobOf(name, quota, pods, cpu, runFor, pod -> pod.withPriority(priority)))
        .create();
  }

  /** A one-pod Job whose priority comes from a PriorityClass. */
  Job job(String name, String quota, String cpu, String priorityClass, String runFor) {
    return client.resource(
            jobOf(name, quota, 1, cpu, runFor, pod -> pod.withPriorityClassName(priorityClass)))
        .create();
  }

  /** A suspended, quota-labelled Job whose pods end by themselves after {@code runFor}. */
  public Job jobOf(
      String name, String quota, int pods, String cpu, String runFor,
      UnaryOperator<PodSpecBuilder> podSpec) {
    return new JobBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(namespace)
        .addToLabels(WellKnown.QUOTA_NAME, quota)
        .endMetadata()
        .withNewSpec()
        .withSuspend(true)
        .withParallelism(pods)
        .withCompletions(pods)
        .withNewTemplate()
        .withNewMetadata()
        .addToAnnotations("pod-complete.stage.kwok.x-k8s.io/delay", runFor)
        .endMetadata()
        .withSpec(
            podSpec
                .apply(
                    new PodSpecBuilder()
                        .withRestartPolicy("Never")
                        .addNewContainer()
                        .withName("work")
                        .withImage("busybox")
                        .withNewResources()
                        .addToRequests("cpu", new Quantity(cpu))
                        .addToRequests("memory", new Quantity("1Gi"))
                        .endResources()
                        .endContainer())
                .build())
        .endTemplate()
        .endSpec()
        .build();
  }

  Job job(String name) {
    return client.batch().v1().jobs().inNamespace(namespace).withName(name).get();
  }

  QueueUnit unit(String name) {
    return client.resources(QueueUnit.class).inNamespace(namespace).withName(name).get();
  }

  /** Creates a QueueUnit of the quota with no job behind it, asking for {@code cpu}. */
  void unit(String name, String quota, String cpu) {
    QueueUnit unit = new QueueUnit();
    unit.getMetadata().setName(name);
    unit.getMetadata().setNamespace(namespace);
    unit.getMetadata().setLabels(Map.of(WellKnown.QUOTA_NAME, quota));
    QueueUnitSpec spec = new QueueUnitSpec();
    spec.setQueue(quota);
    spec.setResource(Map.of("cpu", new Quantity(cpu)));
    unit.setSpec(spec);
    client.resource(unit).create();
  }

  ElasticQuota quota(String name) {
    return client.resources(ElasticQuota.class).inNamespace(QUOTA_NAMESPACE).withName(name).get();
  }

  String phase(String unit) {
    QueueUnit u = unit(unit);
    return u == null || u.getStatus() == null ? null : u.getStatus().getPhase();
  }

  /** Whether the job was let go: no longer suspended. */
  boolean resumed(String job) {
    return Boolean.FALSE.equals(job(job).getSpec().getSuspend());
  }

  /** The unit's condition of that type, or null while it has none. */
  Condition condition(String unit, String type) {
    QueueUnit u = unit(unit);
    return u == null || u.getStatus() == null || u.getStatus().getConditions() == null
        ? null
        : u.getStatus().getConditions().stream()
            .filter(c -> type.equals(c.getType()))
            .findFirst()
            .orElse(null);
  }

  @Override
  public void close() {
    client.namespaces().withName(namespace).delete();
    priorityClasses.forEach(
        name -> client.scheduling().v1().priorityClasses().withName(name).delete());
    List<String> childrenFirst = new ArrayList<>(quotas);
    java.util.Collections.reverse(childrenFirst);
    for (String quota : childrenFirst) {
      client.resources(ElasticQuota.class).inNamespace(QUOTA_NAMESPACE).withName(quota).delete();
      client.resources(Queue.class).inNamespace(Queue.DEFAULT_NAMESPACE).withName(quota).delete();
    }
  }

  private void namespace(String name) {
    if (client.namespaces().withName(name).get() == null) {
      client.resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
          .create();
    }
  }
}
