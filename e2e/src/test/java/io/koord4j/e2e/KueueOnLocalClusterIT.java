package io.koord4j.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.manager.it.InProcessManager;
import io.koord4j.testing.LocalCluster;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Real Kueue runs on the local cluster: its webhook suspends jobs and its scheduler admits them. */
class KueueOnLocalClusterIT {
  private static final String RUN = java.util.UUID.randomUUID().toString().substring(0, 8);
  private static final String NAMESPACE = "kueue-it-" + RUN;
  private static KubernetesClient client;

  @BeforeAll
  static void startKueue() {
    // Kueue alone owns jobs labelled with its queue name here: stop the manager earlier tests ran.
    InProcessManager.stop();
    client = LocalCluster.client();
    LocalCluster.script("nodes", "--count", "1", "--cpu", "16", "--memory", "64Gi", "--prefix",
        "kueue-it-node");
    LocalCluster.script("kueue", "up");
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE)
        .endMetadata().build()).serverSideApply();
    applyWhenWebhookAnswers("""
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ResourceFlavor
        metadata: {name: kueue-it-flavor-%s}
        """.formatted(RUN));
    applyWhenWebhookAnswers("""
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ClusterQueue
        metadata: {name: kueue-it-cq-%s}
        spec:
          namespaceSelector: {}
          resourceGroups:
          - coveredResources: [cpu]
            flavors:
            - name: kueue-it-flavor-%s
              resources:
              - {name: cpu, nominalQuota: "4"}
        """.formatted(RUN, RUN));
    applyWhenWebhookAnswers("""
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: LocalQueue
        metadata: {name: kueue-it-lq, namespace: kueue-it-%s}
        spec: {clusterQueue: kueue-it-cq-%s}
        """.formatted(RUN, RUN));
  }

  @AfterAll
  static void close() {
    if (client != null) {
      client.namespaces().withName(NAMESPACE).delete();
      client.close();
    }
    // Kueue claims every job labelled with a queue name; stop it so later tests own their jobs.
    LocalCluster.script("kueue", "down");
  }

  private static void applyWhenWebhookAnswers(String yaml) {
    GenericKubernetesResource resource = Serialization.unmarshal(yaml, GenericKubernetesResource.class);
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
        .until(() -> client.resource(resource).serverSideApply() != null);
  }

  @Test
  void secondJobWaitsForQuotaUntilTheFirstFinishes() {
    Job first = client.resource(queuedJob("first", "8s")).create();
    // Kueue queues by its Workloads' creation; several Job workers may create them in any order.
    await("the first job's Workload").atMost(Duration.ofSeconds(60)).until(() -> !workloads().isEmpty());
    Job second = client.resource(queuedJob("second", "0s")).create();
    assertThat(first.getSpec().getSuspend()).as("stored suspended by Kueue's webhook").isTrue();
    assertThat(second.getSpec().getSuspend()).as("stored suspended by Kueue's webhook").isTrue();

    Instant deadline = Instant.now().plusSeconds(120);
    boolean firstStarted = false;
    while (!succeeded(get("second"))) {
      assertThat(Instant.now()).as("both jobs finish").isBefore(deadline);
      Job firstNow = get("first");
      Job secondNow = get("second");
      firstStarted |= Boolean.FALSE.equals(firstNow.getSpec().getSuspend());
      if (Boolean.FALSE.equals(secondNow.getSpec().getSuspend())) {
        assertThat(firstNow.getStatus().getCompletionTime())
            .as("the second job starts only after the first has finished and freed its 3 CPU")
            .isNotNull();
      }
      sleep();
    }
    assertThat(firstStarted).as("the first job was admitted and ran").isTrue();
    assertThat(succeeded(get("first"))).isTrue();
  }

  private static Job queuedJob(String name, String runTime) {
    return new JobBuilder()
        .withNewMetadata().withName(name).withNamespace(NAMESPACE)
        .addToLabels("kueue.x-k8s.io/queue-name", "kueue-it-lq").endMetadata()
        .withNewSpec().withParallelism(1).withCompletions(1)
        .withNewTemplate().withNewMetadata()
        .addToAnnotations("pod-complete.stage.kwok.x-k8s.io/delay", runTime).endMetadata()
        .withNewSpec().withRestartPolicy("Never")
        .addNewContainer().withName("work").withImage("busybox")
        .withNewResources().addToRequests("cpu", new Quantity("3")).endResources().endContainer()
        .endSpec().endTemplate().endSpec().build();
  }

  private static List<GenericKubernetesResource> workloads() {
    return client.genericKubernetesResources("kueue.x-k8s.io/v1beta2", "Workload").inNamespace(NAMESPACE).list()
        .getItems();
  }

  private static Job get(String name) {
    return client.batch().v1().jobs().inNamespace(NAMESPACE).withName(name).get();
  }

  private static boolean succeeded(Job job) {
    return job.getStatus() != null && Integer.valueOf(1).equals(job.getStatus().getSucceeded());
  }

  private static void sleep() {
    try {
      Thread.sleep(200);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
