package io.koord4j.manager;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.api.WellKnown;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The check {@code helm test} runs: every manager replica is ready, one holds the Lease, and the
 * API server's call to the webhook suspends a queued Job (created as a dry run, so nothing stays).
 *
 * <p>Environment: {@code KOORD4J_NAMESPACE}, {@code KOORD4J_LEASE_NAME}, {@code
 * KOORD4J_MANAGER_DEPLOYMENT}, {@code KOORD4J_CHECK_NAMESPACE} (where the dry-run Job is made;
 * empty skips the webhook check, as in Kueue mode).
 */
final class InstallCheck {
  private static final Logger LOG = LoggerFactory.getLogger(InstallCheck.class);
  private static final Duration READY_TIMEOUT = Duration.ofMinutes(2);

  private InstallCheck() {}

  static void run(KubernetesClient client, Map<String, String> env) throws InterruptedException {
    String namespace = ReleaseCleanup.required(env, "KOORD4J_NAMESPACE");
    String deployment = ReleaseCleanup.required(env, "KOORD4J_MANAGER_DEPLOYMENT");
    String lease = ReleaseCleanup.required(env, "KOORD4J_LEASE_NAME");
    awaitReady(client, namespace, deployment);
    Lease held = client.resources(Lease.class).inNamespace(namespace).withName(lease).get();
    if (held == null || held.getSpec().getHolderIdentity() == null || held.getSpec().getHolderIdentity().isBlank()) {
      throw new IllegalStateException("no manager replica holds the Lease " + namespace + "/" + lease);
    }
    LOG.info("manager ready; {} leads", held.getSpec().getHolderIdentity());
    String checkNamespace = env.get("KOORD4J_CHECK_NAMESPACE");
    if (checkNamespace != null && !checkNamespace.isBlank()) {
      checkWebhook(client, checkNamespace);
    }
  }

  private static void awaitReady(KubernetesClient client, String namespace, String name)
      throws InterruptedException {
    Instant deadline = Instant.now().plus(READY_TIMEOUT);
    while (true) {
      Deployment deployment = client.apps().deployments().inNamespace(namespace).withName(name).get();
      if (deployment == null) {
        throw new IllegalStateException("Deployment " + namespace + "/" + name + " does not exist");
      }
      int wanted = Objects.requireNonNullElse(deployment.getSpec().getReplicas(), 1);
      int ready = Objects.requireNonNullElse(deployment.getStatus().getReadyReplicas(), 0);
      if (ready >= wanted) {
        return;
      }
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException(
            "Deployment " + namespace + "/" + name + ": " + ready + " of " + wanted + " replicas ready after " + READY_TIMEOUT);
      }
      Thread.sleep(1000);
    }
  }

  /** A queued Job must come back from the API server suspended: the webhook answered. */
  private static void checkWebhook(KubernetesClient client, String namespace) {
    Job job =
        new JobBuilder()
            .withNewMetadata()
            .withGenerateName("koord4j-install-check-")
            .withLabels(Map.of(WellKnown.KUEUE_QUEUE_NAME, "koord4j-install-check"))
            .endMetadata()
            .withNewSpec()
            .withSuspend(false)
            .withNewTemplate()
            .withNewSpec()
            .withRestartPolicy("Never")
            .addNewContainer()
            .withName("check")
            .withImage("koord4j/install-check")
            .endContainer()
            .endSpec()
            .endTemplate()
            .endSpec()
            .build();
    Job admitted = client.batch().v1().jobs().inNamespace(namespace).resource(job).dryRun().create();
    if (!Boolean.TRUE.equals(admitted.getSpec().getSuspend())) {
      throw new IllegalStateException(
          "a queued Job was created unsuspended: the koord4j webhook did not answer the API server");
    }
    LOG.info("the webhook suspended a queued Job (dry run in {})", namespace);
  }
}
