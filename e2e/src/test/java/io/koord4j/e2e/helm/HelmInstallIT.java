package io.koord4j.e2e.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.e2e.helm.RbacAudit.Access;
import io.koord4j.manager.it.InProcessManager;
import io.koord4j.testing.LocalCluster;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer.OrderAnnotation;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * koord4j installed by Helm on the local cluster's real node, from the locally built images, and
 * used as a user would: helm test, the samples, then helm uninstall. The API server's audit log of
 * koord4j's ServiceAccounts shows that every component works under its own account, that none is
 * refused anything, and that every permission the chart grants is used.
 */
@TestMethodOrder(OrderAnnotation.class)
class HelmInstallIT {
  private static final String RELEASE = "koord4j";
  /** The namespace whose ServiceAccounts the local API server audits. */
  private static final String NAMESPACE = "koord4j-system";
  private static final String JOBS = "helm-it-" + UUID.randomUUID().toString().substring(0, 8);
  private static final String NODE_PREFIX = "helm-it";
  /** The images this checkout builds, tagged apart from other checkouts' builds of the same version. */
  private static final String IMAGE_TAG = "helm-it";
  private static final Duration INSTALL_TIMEOUT = Duration.ofMinutes(10);

  /**
   * Grants the scenario does not exercise, each with the reason it is still needed. A new entry
   * needs a reason a reviewer accepts.
   */
  private static final Map<String, Set<Access>> NOT_EXERCISED =
      Map.of(
          "koord4j-manager",
          Set.of(
              // Server-side apply that creates an object is also authorized as create; the audit
              // log records it as patch.
              new Access("create", "admissionregistration.k8s.io", "mutatingwebhookconfigurations"),
              new Access("create", "admissionregistration.k8s.io", "validatingwebhookconfigurations"),
              // Job kinds whose operators the scenario does not run: same calls as Job and PyTorchJob.
              new Access("update", "kubeflow.org", "tfjobs"),
              new Access("patch", "kubeflow.org", "tfjobs"),
              new Access("patch", "kubeflow.org", "tfjobs/status"),
              new Access("update", "kubeflow.org", "mpijobs"),
              new Access("patch", "kubeflow.org", "mpijobs"),
              new Access("patch", "kubeflow.org", "mpijobs/status"),
              new Access("update", "sparkoperator.k8s.io", "sparkapplications"),
              new Access("patch", "sparkoperator.k8s.io", "sparkapplications"),
              new Access("patch", "sparkoperator.k8s.io", "sparkapplications/status"),
              new Access("update", "ray.io", "rayjobs"),
              new Access("patch", "ray.io", "rayjobs"),
              new Access("patch", "ray.io", "rayjobs/status"),
              new Access("update", "ray.io", "rayclusters"),
              new Access("patch", "ray.io", "rayclusters"),
              new Access("patch", "ray.io", "rayclusters/status"),
              new Access("update", "argoproj.io", "workflows"),
              new Access("patch", "argoproj.io", "workflows"),
              new Access("patch", "argoproj.io", "workflows/status"),
              // Jobs marked queued by the manager (the webhook marks them first) and running jobs
              // suspended on eviction: the samples' jobs are held by the webhook and admitted at once.
              new Access("update", "batch", "jobs"),
              new Access("update", "kubeflow.org", "pytorchjobs"),
              // Invalid jobs only: their status gets a condition saying why.
              new Access("patch", "batch", "jobs/status"),
              new Access("patch", "kubeflow.org", "pytorchjobs/status"),
              // A PriorityClass the informer has not listed yet; quotas whose Queue's namespace is
              // missing.
              new Access("get", "scheduling.k8s.io", "priorityclasses"),
              new Access("create", "", "namespaces"),
              // AdmissionChecks with koord4j's controllerName: the samples create none.
              new Access("patch", "kueue.x-k8s.io", "admissionchecks/status"),
              // Certificate rotation, after months.
              new Access("update", "", "secrets"),
              // Events on jobs that wait or are invalid; the scenario's jobs are admitted at once.
              new Access("create", "", "events"),
              // ElasticQuotas are created only when missing: the system quotas, which earlier tests'
              // managers made on this cluster already, and a profile's root quota, created by
              // server-side apply (audited as patch).
              new Access("create", "scheduling.sigs.k8s.io", "elasticquotas"),
              // A quota's Queue is read and patched only when the queue settings the quota carries
              // change; a PodGroup is applied only when one of that name exists (a job requeued at
              // another size). The samples do neither.
              new Access("get", "scheduling.x-k8s.io", "queues"),
              new Access("patch", "scheduling.x-k8s.io", "queues"),
              new Access("patch", "scheduling.sigs.k8s.io", "podgroups"),
              // The webhook reads a PodGroup its cache does not hold yet.
              new Access("get", "scheduling.sigs.k8s.io", "podgroups"),
              // A gang's PodGroup is applied server-side: the API server checks create when it is
              // missing, but audits the request as patch.
              new Access("create", "scheduling.sigs.k8s.io", "podgroups"),
              // Checked by the OwnerReferencesPermissionEnforcement admission plugin when a unit
              // blocks its job's deletion; the local API server does not run that plugin.
              new Access("update", "batch", "jobs/finalizers"),
              new Access("update", "kubeflow.org", "tfjobs/finalizers"),
              new Access("update", "kubeflow.org", "pytorchjobs/finalizers"),
              new Access("update", "kubeflow.org", "mpijobs/finalizers"),
              new Access("update", "sparkoperator.k8s.io", "sparkapplications/finalizers"),
              new Access("update", "ray.io", "rayjobs/finalizers"),
              new Access("update", "ray.io", "rayclusters/finalizers"),
              new Access("update", "argoproj.io", "workflows/finalizers"),
              // A unit is re-read when an admission write failed, and updated when its job's queue,
              // priority or demand changes after queueing.
              new Access("get", "scheduling.x-k8s.io", "queueunits"),
              new Access("update", "scheduling.x-k8s.io", "queueunits")),
          "koord4j-scheduler",
          Set.of(
              // Pods asking for GPUs (annotated with their devices) and unschedulable pods (a
              // condition and an event).
              new Access("patch", "", "pods"),
              new Access("patch", "", "pods/status"),
              new Access("create", "", "events"),
              // A binding whose answer was lost is read back (ApiBinder): only on a failed call.
              new Access("get", "", "pods")),
          "koord4j-koordlet",
          Set.of(
              // The real node has no GPUs: no Device to apply, no GPU model label.
              new Access("create", "scheduling.koordinator.sh", "devices"),
              new Access("patch", "scheduling.koordinator.sh", "devices"),
              new Access("patch", "", "nodes"),
              // Memory pressure only: best-effort pods evicted, with an event.
              new Access("create", "", "pods/eviction"),
              new Access("create", "", "events"),
              // The node's NodeMetric may outlive an installation (the Node owns it).
              new Access("create", "slo.koordinator.sh", "nodemetrics")));

  private static KubernetesClient client;
  private static long auditOffset;

  @BeforeAll
  static void installPrerequisites() throws IOException {
    // The installed manager must be the only one admitting: stop the one earlier tests ran here.
    InProcessManager.stop();
    client = LocalCluster.client();
    LocalCluster.script("node", "up");
    LocalCluster.script("images", "load", "--tag", IMAGE_TAG);
    // The job kinds of the samples, with their operators, before the manager starts.
    LocalCluster.script("kueue", "crds");
    LocalCluster.script("jobs", "up");
    LocalCluster.script("nodes", "--count", "2", "--cpu", "32", "--memory", "128Gi", "--prefix", NODE_PREFIX);
    ClusterTools.helm("uninstall", RELEASE, "-n", NAMESPACE, "--ignore-not-found", "--wait");
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(JOBS).endMetadata().build()).create();
    auditOffset = Files.size(auditLog());
  }

  @AfterAll
  static void cleanUp() {
    if (client == null) {
      return;
    }
    ClusterTools.helm("uninstall", RELEASE, "-n", NAMESPACE, "--ignore-not-found", "--wait");
    ClusterTools.kubectl(null, "delete", "--ignore-not-found", "-f", sample("queues"), "-f", sample("quota"));
    client.namespaces().withName(JOBS).delete();
    for (int i = 0; i < 2; i++) {
      client.nodes().withName(NODE_PREFIX + "-" + i).delete();
    }
    client.close();
  }

  @Test
  @Order(1)
  void everyPodRunsFromTheLocalImagesUnderItsOwnAccount() {
    ClusterTools.Result install =
        ClusterTools.helm(
            "install", RELEASE, ClusterTools.chart(), "-n", NAMESPACE, "--create-namespace",
            "-f", ClusterTools.localClusterValues(), "--set", "image.tag=" + IMAGE_TAG, "--set", "koordlet.enabled=true");
    assertThat(install.succeeded()).as(install.describe()).isTrue();
    // Helm's --wait counts a one-replica Deployment that may be unavailable as ready at once.
    await("koord4j's pods run").atMost(INSTALL_TIMEOUT).untilAsserted(() ->
        assertThat(componentPods()).hasSize(3).allSatisfy(pod -> assertThat(pod.getStatus().getConditions())
            .anySatisfy(c -> assertThat(c.getType() + "=" + c.getStatus()).isEqualTo("Ready=True"))));

    List<Pod> pods = componentPods();
    assertThat(pods).extracting(pod -> pod.getMetadata().getLabels().get("app.kubernetes.io/component"))
        .containsExactlyInAnyOrder("manager", "scheduler", "koordlet");
    assertThat(pods).allSatisfy(pod -> {
      String component = pod.getMetadata().getLabels().get("app.kubernetes.io/component");
      assertThat(pod.getStatus().getPhase()).isEqualTo("Running");
      assertThat(pod.getSpec().getNodeName()).isEqualTo("real-node-0");
      assertThat(pod.getSpec().getContainers().get(0).getImage()).startsWith("koord4j/");
      assertThat(pod.getSpec().getServiceAccountName()).isEqualTo("koord4j-" + component);
    });
  }

  @Test
  @Order(2)
  void helmTestPasses() {
    ClusterTools.Result test = ClusterTools.helm("test", RELEASE, "-n", NAMESPACE, "--timeout", "5m");

    assertThat(test.succeeded()).as(test.describe()).isTrue();
    assertThat(test.stdout()).contains("koord4j-install-check").contains("Succeeded");
  }

  @Test
  @Order(3)
  void everySampleJobIsQueuedAndTheJobAndPyTorchJobRunOnTheInstalledComponents() throws IOException {
    ClusterTools.Result samples =
        ClusterTools.kubectl(null, "apply", "--server-side", "-f", sample("quota"), "-f", sample("queues"));
    assertThat(samples.succeeded()).as(samples.describe()).isTrue();
    ClusterTools.Result bound = ClusterTools.bindSampleQuotas(JOBS, "research-nlp", "research-vision");
    assertThat(bound.succeeded()).as(bound.describe()).isTrue();

    // Every file of samples/jobs, applied as a user would: a new sample is picked up here.
    List<GenericKubernetesResource> sampleJobs = sampleJobs();
    assertThat(sampleJobs).extracting(GenericKubernetesResource::getKind)
        .contains("Job", "TFJob", "PyTorchJob", "MPIJob", "SparkApplication", "RayJob", "RayCluster", "Workflow");
    ClusterTools.Result jobs = ClusterTools.kubectl(null, "apply", "-n", JOBS, "-f", sample("jobs"));
    assertThat(jobs.succeeded()).as(jobs.describe()).isTrue();
    GenericKubernetesResource pytorch =
        sampleJobs.stream().filter(job -> job.getKind().equals("PyTorchJob")).findFirst().orElseThrow();

    await("every sample job is queued: a QueueUnit stands for it")
        .atMost(Duration.ofMinutes(3))
        .untilAsserted(() -> assertThat(client.resources(QueueUnit.class).inNamespace(JOBS).list().getItems())
            .extracting(unit -> unit.getSpec().getConsumerRef().getKind() + "/" + unit.getSpec().getConsumerRef().getName())
            .containsAll(sampleJobs.stream().map(job -> job.getKind() + "/" + job.getMetadata().getName()).toList()));
    await("the sample Job runs to completion, placed by koord-scheduler")
        .atMost(Duration.ofMinutes(3))
        .untilAsserted(() -> assertThat(client.batch().v1().jobs().inNamespace(JOBS).withName("hello").get().getStatus().getSucceeded())
            .isEqualTo(2));
    await("the PyTorchJob is admitted and its pods run")
        .atMost(Duration.ofMinutes(3))
        .untilAsserted(() -> assertThat(client.pods().inNamespace(JOBS)
                .withLabel("training.kubeflow.org/job-name", pytorch.getMetadata().getName()).list().getItems())
            .hasSize(4)
            .allSatisfy(pod -> assertThat(pod.getStatus().getPhase()).isEqualTo("Running")));

    Map<String, Set<Access>> used = RbacAudit.used(auditLines(), NAMESPACE);
    assertThat(used.get("koord4j-manager"))
        .as("the installed manager started the jobs")
        .contains(new Access("patch", "batch", "jobs"), new Access("patch", "kubeflow.org", "pytorchjobs"));
    assertThat(used.get("koord4j-scheduler"))
        .as("the installed koord-scheduler bound the Job's pods")
        .contains(new Access("create", "", "bindings"));
    await("the installed koordlet reports the real node's usage")
        .atMost(Duration.ofMinutes(3))
        .untilAsserted(() -> assertThat(RbacAudit.used(auditLines(), NAMESPACE).get("koord4j-koordlet"))
            .contains(new Access("patch", "slo.koordinator.sh", "nodemetrics/status")));
  }

  @Test
  @Order(4)
  void everyGrantIsUsedAndNoRequestIsForbidden() {
    ClusterTools.Result manifest = ClusterTools.helm("get", "manifest", RELEASE, "-n", NAMESPACE);
    assertThat(manifest.succeeded()).as(manifest.describe()).isTrue();
    List<HasMetadata> objects =
        client.load(new ByteArrayInputStream(manifest.stdout().getBytes(StandardCharsets.UTF_8))).items();

    assertThat(RbacAudit.forbidden(auditLines(), NAMESPACE)).as("requests refused with 403").isEmpty();
    assertThat(RbacAudit.unused(RbacAudit.granted(objects, NAMESPACE), RbacAudit.used(auditLines(), NAMESPACE), NOT_EXERCISED))
        .as("grants never used and not justified in NOT_EXERCISED")
        .isEmpty();
  }

  @Test
  @Order(5)
  void uninstallLeavesNothingBehindAndJobsAreNoLongerHeld() {
    ClusterTools.Result uninstall = ClusterTools.helm("uninstall", RELEASE, "-n", NAMESPACE, "--wait", "--timeout", "5m");
    assertThat(uninstall.succeeded()).as(uninstall.describe()).isTrue();

    assertThat(client.admissionRegistration().v1().mutatingWebhookConfigurations().withName("koord4j-mutating").get()).isNull();
    assertThat(client.admissionRegistration().v1().validatingWebhookConfigurations().withName("koord4j-validating").get()).isNull();
    assertThat(client.rbac().clusterRoles().withLabel("app.kubernetes.io/part-of", "koord4j").list().getItems()).isEmpty();
    assertThat(client.rbac().clusterRoleBindings().withLabel("app.kubernetes.io/part-of", "koord4j").list().getItems()).isEmpty();
    assertThat(client.rbac().roleBindings().inNamespace(NAMESPACE).withLabel("app.kubernetes.io/part-of", "koord4j").list().getItems()).isEmpty();
    assertThat(client.resources(Lease.class).inNamespace(NAMESPACE).list().getItems())
        .extracting(lease -> lease.getMetadata().getName())
        .doesNotContain("koord4j-manager", "koord-scheduler");
    assertThat(client.secrets().inNamespace(NAMESPACE).withName("koord4j-webhook-tls").get()).isNull();

    Job after = client.batch().v1().jobs().inNamespace(JOBS).resource(queuedJob().edit().editMetadata().withName("after").endMetadata().build()).create();
    assertThat(after.getSpec().getSuspend()).as("no webhook holds the job any more").isNotEqualTo(true);
  }

  /** Two pods placed by koord-scheduler, queued in the samples' research-nlp queue, as samples/jobs/job.yaml. */
  private static Job queuedJob() {
    return new JobBuilder()
        .withNewMetadata().withName("hello").withLabels(Map.of("kueue.x-k8s.io/queue-name", "research-nlp")).endMetadata()
        .withNewSpec().withParallelism(2).withCompletions(2)
        .withNewTemplate().withNewSpec().withSchedulerName("koord-scheduler").withRestartPolicy("Never")
        .addNewContainer().withName("hello").withImage("busybox")
        .withNewResources().addToRequests("cpu", new Quantity("1")).addToRequests("memory", new Quantity("1Gi")).endResources()
        .endContainer().endSpec().endTemplate().endSpec()
        .build();
  }

  /** The jobs of samples/jobs, one a file. */
  private static List<GenericKubernetesResource> sampleJobs() throws IOException {
    try (Stream<Path> files = Files.list(LocalCluster.repoRoot().resolve("samples/jobs"))) {
      List<Path> yaml = files.filter(file -> file.toString().endsWith(".yaml")).sorted().toList();
      List<GenericKubernetesResource> jobs = new ArrayList<>();
      for (Path file : yaml) {
        jobs.add(client.getKubernetesSerialization().unmarshal(Files.readString(file), GenericKubernetesResource.class));
      }
      return jobs;
    }
  }

  private static List<Pod> componentPods() {
    return client.pods().inNamespace(NAMESPACE).withLabel("app.kubernetes.io/instance", RELEASE).list().getItems().stream()
        .filter(pod -> Set.of("manager", "scheduler", "koordlet").contains(pod.getMetadata().getLabels().get("app.kubernetes.io/component")))
        .toList();
  }

  private static String sample(String dir) {
    return LocalCluster.repoRoot().resolve("samples").resolve(dir).toString();
  }

  /** This run's part of the API server's audit log. */
  private static Stream<String> auditLines() {
    try {
      byte[] all = Files.readAllBytes(auditLog());
      return new String(all, (int) auditOffset, all.length - (int) auditOffset, StandardCharsets.UTF_8).lines();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + auditLog(), e);
    }
  }

  private static Path auditLog() {
    String state = System.getenv("KOORD4J_CLUSTER_STATE");
    Path dir = state == null || state.isBlank()
        ? Path.of(System.getProperty("user.home"), ".cache/koord4j/cluster/state")
        : Path.of(state);
    Path log = dir.resolve("logs/audit.log");
    if (!Files.exists(log)) {
      throw new IllegalStateException(log + " is missing: the local API server audits koord4j's ServiceAccounts there; " + LocalCluster.HOW_TO_START);
    }
    return log;
  }
}
