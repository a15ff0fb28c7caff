package io.koord4j.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.SelfSubjectReview;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueSpec;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitConditions;
import io.koord4j.manager.it.InProcessManager;
import io.koord4j.manager.it.ManagerProcess;
import io.koord4j.manager.it.TestCluster;
import io.koord4j.testing.JavaProcess;
import io.koord4j.testing.LocalCluster;
import io.koord4j.webhook.registration.WebhookConfigurations;
import io.koord4j.webhook.registration.WebhookRegistrar;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A tenant cannot take its job out of its queue. The manager runs as a process of its own with its
 * webhook, as the chart runs it; the tenant is a ServiceAccount bound to the built-in ClusterRole
 * {@code edit} in its namespace, and writes with a token of its own (TokenRequest API). Its Job of
 * two 4-CPU pods waits for a 1-CPU quota, and every patch that would start it is refused naming
 * the field: the job stays suspended and no pod is created. Nor can it spend a quota its namespace
 * is not bound to: another team's, or Koordinator's unlimited system quota.
 */
class TenantAbuseIT {
  private static final String TENANT = "tenant";
  private static final String JOB = "gang";
  private static final String RESUMED_BY_QUEUE_ONLY =
      "spec.suspend: a queued job is resumed only by its queue (koord4j) once admitted";
  private static final Duration START = Duration.ofMinutes(2);

  private static KubernetesClient admin;
  private static TestCluster cluster;
  private static String systemNamespace;
  private static ManagerProcess manager;
  private static KubernetesClient tenant;
  private static String quota;
  private static String othersQuota;

  @BeforeAll
  static void startManagerAndTenant() throws Exception {
    // Only this test's manager may queue its job.
    InProcessManager.stop();
    admin = LocalCluster.client();
    LocalCluster.ensureAllCrds(admin);
    cluster = new TestCluster(admin, "tenant-abuse");
    systemNamespace = cluster.prefix + "-system";
    manager = ManagerProcess.start(systemNamespace, cluster.prefix + "-manager", Duration.ofSeconds(15),
        cluster.prefix + "-manager", List.of(), Map.of(
            "KOORD4J_WEBHOOK", "true",
            "KOORD4J_WEBHOOK_URL_HOST", "127.0.0.1",
            "KOORD4J_WEBHOOK_PORT", Integer.toString(JavaProcess.freePort()),
            "KOORD4J_WEBHOOK_CONFIGURATION_PREFIX", cluster.prefix));
    createQueue(cluster.prefix + "-team");
    quota = cluster.quota("team", null, false, "1", "1");
    othersQuota = cluster.othersQuota("other-team", "64");
    tenant = clientOf(editor(cluster.namespace));
  }

  @AfterAll
  static void cleanUp() throws InterruptedException {
    if (tenant != null) {
      tenant.close();
    }
    if (cluster != null) {
      // A stopped webhook leaves its configurations, which fail closed: they go first.
      new WebhookRegistrar(admin).delete(WebhookConfigurations.Names.prefixed(cluster.prefix));
      if (manager != null) {
        manager.stop();
      }
      cluster.close();
      admin.namespaces().withName(systemNamespace).delete();
    }
    if (admin != null) {
      admin.close();
    }
  }

  @Test
  void aTenantWithTheEditRoleCannotStartItsQueuedJob() {
    assertThat(tenant.authentication().v1().selfSubjectReviews().create(new SelfSubjectReview())
            .getStatus().getUserInfo().getUsername())
        .isEqualTo("system:serviceaccount:" + cluster.namespace + ":" + TENANT);
    Job submitted = cluster.jobOf(JOB, quota, 2, "4", "600s", pod -> pod);
    submitted.getSpec().setSuspend(false);
    await("the webhook holds queued jobs").atMost(START).ignoreExceptions()
        .until(() -> Boolean.TRUE.equals(tenant.resource(submitted).dryRun().create().getSpec().getSuspend()));

    Job stored = tenant.resource(submitted).create();

    assertThat(stored.getSpec().getSuspend()).as("held by the webhook").isTrue();
    await("the job waits for quota").atMost(START).until(TenantAbuseIT::waitsForQuota);

    assertRefused(
        "{\"metadata\":{\"labels\":{\"" + WellKnown.QUOTA_NAME + "\":null}},\"spec\":{\"suspend\":false}}",
        RESUMED_BY_QUEUE_ONLY, "metadata.labels[" + WellKnown.QUOTA_NAME + "]");
    assertRefused(
        "{\"metadata\":{\"labels\":{\"" + WellKnown.SKIP_QUEUE_LABEL + "\":\"true\"}},\"spec\":{\"suspend\":false}}",
        RESUMED_BY_QUEUE_ONLY, "metadata.labels[" + WellKnown.SKIP_QUEUE_LABEL + "]");
    assertRefused("{\"spec\":{\"suspend\":false}}", RESUMED_BY_QUEUE_ONLY);

    // The edit role itself is intact: what the queue does not own the tenant still changes.
    patchAsTenant("{\"metadata\":{\"annotations\":{\"team.example.com/note\":\"waiting\"}}}");
    assertThat(job().getMetadata().getAnnotations()).containsEntry("team.example.com/note", "waiting");
  }

  @Test
  void aTenantCannotNameAQuotaItsNamespaceIsNotBoundTo() {
    for (String foreign : List.of(othersQuota, WellKnown.SYSTEM_QUOTA)) {
      Job named = cluster.jobOf("foreign", foreign, 1, "1", "1s", pod -> pod);
      String refusal = "metadata.labels[" + WellKnown.QUOTA_NAME + "]: quota \"" + foreign
          + "\" is not bound to namespace \"" + cluster.namespace + "\"";
      await("the webhook knows quota " + foreign).atMost(START).ignoreExceptions().untilAsserted(
          () -> assertThatThrownBy(() -> tenant.resource(named).dryRun().create()).hasMessageContaining(refusal));

      assertThatThrownBy(() -> tenant.resource(named).create())
          .isInstanceOf(KubernetesClientException.class)
          .hasMessageContaining(refusal);
    }
    assertThat(admin.batch().v1().jobs().inNamespace(cluster.namespace).withName("foreign").get()).isNull();
  }

  /** The tenant's patch is refused naming each field, and the job is still held with no pod. */
  private static void assertRefused(String mergePatch, String... fieldsAndRules) {
    assertThatThrownBy(() -> patchAsTenant(mergePatch))
        .as(mergePatch)
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContainingAll(fieldsAndRules);
    await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
      Job job = job();
      assertThat(job.getSpec().getSuspend()).as("suspended after " + mergePatch).isTrue();
      assertThat(job.getMetadata().getLabels())
          .containsEntry(WellKnown.QUOTA_NAME, quota)
          .doesNotContainKey(WellKnown.SKIP_QUEUE_LABEL);
      assertThat(admin.pods().inNamespace(cluster.namespace).list().getItems()).as("pods").isEmpty();
    });
  }

  private static void patchAsTenant(String mergePatch) {
    tenant.batch().v1().jobs().inNamespace(cluster.namespace).withName(JOB)
        .patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch);
  }

  private static Job job() {
    return admin.batch().v1().jobs().inNamespace(cluster.namespace).withName(JOB).get();
  }

  private static boolean waitsForQuota() {
    QueueUnit unit = admin.resources(QueueUnit.class).inNamespace(cluster.namespace).withName(JOB).get();
    return unit != null && unit.getStatus() != null && unit.getStatus().getConditions() != null
        && unit.getStatus().getConditions().stream().anyMatch(condition ->
            QueueUnitConditions.QUOTA_RESERVED.equals(condition.getType()) && "False".equals(condition.getStatus()));
  }

  /** The quota's Queue, created before the quota as koord-queue users do. */
  private static void createQueue(String name) {
    Queue queue = new Queue();
    queue.getMetadata().setName(name);
    queue.getMetadata().setNamespace(Queue.DEFAULT_NAMESPACE);
    queue.setSpec(new QueueSpec());
    if (admin.namespaces().withName(Queue.DEFAULT_NAMESPACE).get() == null) {
      admin.namespaces().resource(new NamespaceBuilder().withNewMetadata()
          .withName(Queue.DEFAULT_NAMESPACE).endMetadata().build()).create();
    }
    admin.resource(queue).create();
  }

  /** A ServiceAccount bound to the ClusterRole {@code edit} in the namespace, and a token of it. */
  private static String editor(String namespace) {
    admin.serviceAccounts().inNamespace(namespace)
        .resource(new ServiceAccountBuilder().withNewMetadata().withName(TENANT).endMetadata().build()).create();
    admin.rbac().roleBindings().inNamespace(namespace).resource(new RoleBindingBuilder()
            .withNewMetadata().withName(TENANT + "-edit").endMetadata()
            .withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("ClusterRole").withName("edit")
            .endRoleRef()
            .addNewSubject().withKind("ServiceAccount").withName(TENANT).withNamespace(namespace).endSubject()
            .build())
        .create();
    return admin.serviceAccounts().inNamespace(namespace).withName(TENANT)
        .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build())
        .getStatus().getToken();
  }

  /**
   * A client of the local API server (URL and CA from the admin kubeconfig) that authenticates with
   * the token alone: nothing else of the kubeconfig, whose client certificate would make it admin.
   */
  private static KubernetesClient clientOf(String token) {
    Config adminConfig = admin.getConfiguration();
    Config config = new ConfigBuilder(Config.empty())
        .withMasterUrl(adminConfig.getMasterUrl())
        .withCaCertData(adminConfig.getCaCertData())
        .withCaCertFile(adminConfig.getCaCertFile())
        .withOauthToken(token)
        .build();
    return new KubernetesClientBuilder().withConfig(config).build();
  }
}
