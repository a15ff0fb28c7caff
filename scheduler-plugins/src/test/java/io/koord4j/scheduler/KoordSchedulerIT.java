package io.koord4j.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.api.quota.ElasticQuotaSpec;
import io.koord4j.testing.LocalCluster;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * koord-scheduler running in this process against the real local control plane, placing pods on
 * KWOK nodes of its own. The nodes carry a label and a taint unique to this run, and only this
 * test's pods select and tolerate them, so nothing else lands there.
 */
class KoordSchedulerIT {

  private static final String RUN = UUID.randomUUID().toString().substring(0, 6);
  private static final String NAMESPACE = "koord-sched-it-" + RUN;
  private static final String POOL_KEY = "koord4j.io/scheduler-it";
  private static final String FIELD_MANAGER = "koord4j-scheduler-it";

  private static KubernetesClient client;
  private static KoordScheduler scheduler;
  private static final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private static final List<String> nodes = new ArrayList<>();

  @BeforeAll
  static void start() {
    client = LocalCluster.client();
    installCrdsIfAbsent();
    client
        .resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .fieldManager(FIELD_MANAGER)
        .serverSideApply();
    scheduler =
        new KoordScheduler(
            client,
            registry,
            KoordScheduler.Options.defaults()
                .withBackoff(Duration.ofMillis(200), Duration.ofSeconds(2)));
    scheduler.start();
  }

  @AfterAll
  static void stop() {
    if (scheduler != null) {
      scheduler.close();
    }
    if (client != null) {
      client.namespaces().withName(NAMESPACE).delete();
      nodes.forEach(name -> client.nodes().withName(name).delete());
      client.close();
    }
  }

  @Test
  void bindsAPodThatNamesKoordScheduler() {
    List<String> pool = addNodes("single", 1, "ks-" + RUN + "-a");
    Pod pod = client.resource(pod("solo", "single", "1")).create();

    Pod bound = awaitBound(pod.getMetadata().getName());

    assertThat(bound.getSpec().getNodeName()).isIn(pool);
  }

  @Test
  void aGangBindsAllOrNothingAndRetriesUntilRoomAppears() {
    addNodes("gang", 3, "ks-" + RUN + "-g");
    Map<String, String> gang =
        Map.of(
            WellKnown.GANG_NAME, "train",
            WellKnown.GANG_MIN_AVAILABLE, "4",
            WellKnown.GANG_MODE, "Strict",
            WellKnown.GANG_WAITING_TIME, "4s");
    List<String> names = IntStream.range(0, 4).mapToObj(i -> "worker-" + i).toList();
    for (String name : names) {
      // 7 of 8 CPUs: one member per node, so three nodes hold three members.
      client.resource(withAnnotations(pod(name, "gang", "7"), gang)).create();
    }

    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> names.stream().allMatch(n -> unschedulableMessage(n).isPresent()));
    double attemptsBefore = unschedulableAttempts();
    // Longer than the waiting time: placed members time out and are retried, none binds.
    await()
        .pollDelay(Duration.ofSeconds(6))
        .atMost(Duration.ofSeconds(7))
        .until(() -> true);
    assertThat(names).allMatch(n -> nodeOf(n).isEmpty());
    assertThat(unschedulableAttempts()).isGreaterThan(attemptsBefore);
    assertThat(names.stream().map(KoordSchedulerIT::unschedulableMessage).map(Optional::get))
        .anyMatch(m -> m.contains("Insufficient cpu"))
        .anyMatch(m -> m.contains("gang " + NAMESPACE + "/train rejected") || m.contains("rejected after waiting"));

    addNodes("gang", 1, "ks-" + RUN + "-h");

    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> names.stream().allMatch(n -> nodeOf(n).isPresent()));
  }

  @Test
  void aPodOverItsQuotaWaitsAndBindsWhenTheQuotaFrees() {
    addNodes("quota", 1, "ks-" + RUN + "-q");
    String quota = "ks-quota-" + RUN;
    client.resource(elasticQuota(quota)).create();
    Pod first = client.resource(withQuota(pod("first", "quota", "1500m"), quota)).create();
    awaitBound(first.getMetadata().getName());

    client.resource(withQuota(pod("second", "quota", "1"), quota)).create();

    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> unschedulableMessage("second").isPresent());
    assertThat(unschedulableMessage("second").get())
        .contains("quota \"" + quota + "\" has 500m of cpu available, 1 requested");
    assertThat(nodeOf("second")).isEmpty();

    client.pods().inNamespace(NAMESPACE).withName("first").withGracePeriod(0).delete();

    awaitBound("second");
  }

  private static Pod awaitBound(String name) {
    await().atMost(Duration.ofSeconds(30)).until(() -> nodeOf(name).isPresent());
    return client.pods().inNamespace(NAMESPACE).withName(name).get();
  }

  private static Optional<String> nodeOf(String name) {
    Pod pod = client.pods().inNamespace(NAMESPACE).withName(name).get();
    return Optional.ofNullable(pod == null ? null : pod.getSpec().getNodeName()).filter(n -> !n.isEmpty());
  }

  private static Optional<String> unschedulableMessage(String name) {
    Pod pod = client.pods().inNamespace(NAMESPACE).withName(name).get();
    if (pod == null || pod.getStatus() == null) {
      return Optional.empty();
    }
    return pod.getStatus().getConditions().stream()
        .filter(c -> "PodScheduled".equals(c.getType()) && "False".equals(c.getStatus()))
        .filter(c -> "Unschedulable".equals(c.getReason()))
        .map(PodCondition::getMessage)
        .findFirst();
  }

  private static double unschedulableAttempts() {
    Counter counter =
        registry.find("scheduler_schedule_attempts").tag("result", "unschedulable").counter();
    return counter == null ? 0 : counter.count();
  }

  /** KWOK nodes of 8 CPUs, labelled into {@code pool} and tainted for this run only. */
  private static List<String> addNodes(String pool, int count, String prefix) {
    LocalCluster.script(
        "nodes", "--count", Integer.toString(count), "--cpu", "8", "--memory", "32Gi", "--prefix", prefix);
    List<String> names = IntStream.range(0, count).mapToObj(i -> prefix + "-" + i).toList();
    // A merge patch carries no resourceVersion, so KWOK's status updates cannot conflict with it.
    String patch =
        String.format(
            "{\"metadata\":{\"labels\":{\"%s\":\"%s-%s\"}},"
                + "\"spec\":{\"taints\":[{\"key\":\"%s\",\"value\":\"%s\",\"effect\":\"NoSchedule\"}]}}",
            POOL_KEY, RUN, pool, POOL_KEY, RUN);
    for (String name : names) {
      nodes.add(name);
      client.nodes().withName(name).patch(PatchContext.of(PatchType.JSON_MERGE), patch);
    }
    return names;
  }

  private static Pod pod(String name, String pool, String cpu) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(NAMESPACE)
        .endMetadata()
        .withNewSpec()
        .withSchedulerName(KoordScheduler.DEFAULT_NAME)
        .withNodeSelector(Map.of(POOL_KEY, RUN + "-" + pool))
        .addNewToleration()
        .withKey(POOL_KEY)
        .withOperator("Equal")
        .withValue(RUN)
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

  private static Pod withAnnotations(Pod pod, Map<String, String> annotations) {
    return new PodBuilder(pod).editMetadata().addToAnnotations(annotations).endMetadata().build();
  }

  private static Pod withQuota(Pod pod, String quota) {
    return new PodBuilder(pod).editMetadata().addToLabels(WellKnown.QUOTA_NAME, quota).endMetadata().build();
  }

  private static ElasticQuota elasticQuota(String name) {
    ElasticQuota quota = new ElasticQuota();
    quota.getMetadata().setName(name);
    quota.getMetadata().setNamespace(NAMESPACE);
    ElasticQuotaSpec spec = new ElasticQuotaSpec();
    spec.setMin(new HashMap<>(Map.of("cpu", new Quantity("1"), "memory", new Quantity("4Gi"))));
    spec.setMax(new HashMap<>(Map.of("cpu", new Quantity("2"), "memory", new Quantity("8Gi"))));
    quota.setSpec(spec);
    return quota;
  }

  /** The PodGroup and ElasticQuota CRDs from crds/manifests, applied when the cluster lacks them. */
  private static void installCrdsIfAbsent() {
    for (String crd : List.of("elasticquotas.scheduling.sigs.k8s.io", "podgroups.scheduling.sigs.k8s.io")) {
      if (client.apiextensions().v1().customResourceDefinitions().withName(crd).get() != null) {
        continue;
      }
      Path file = LocalCluster.repoRoot().resolve("crds/manifests/" + crd + "-v1.yml");
      try (InputStream in = Files.newInputStream(file)) {
        client
            .resource(Serialization.unmarshal(in, CustomResourceDefinition.class))
            .fieldManager(FIELD_MANAGER)
            .forceConflicts()
            .serverSideApply();
      } catch (IOException e) {
        throw new IllegalStateException("cannot read " + file, e);
      }
      client
          .apiextensions()
          .v1()
          .customResourceDefinitions()
          .withName(crd)
          .waitUntilCondition(
              c ->
                  c != null
                      && c.getStatus() != null
                      && c.getStatus().getConditions().stream()
                          .anyMatch(s -> "Established".equals(s.getType()) && "True".equals(s.getStatus())),
              60,
              TimeUnit.SECONDS);
    }
  }
}
