package io.koord4j.e2e.helm;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.testing.LocalCluster;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The chart passes {@code helm lint}, the API server accepts everything it renders (a server-side
 * dry run, so admission and validation run for real), and values.schema.json refuses wrong values
 * with Helm's message naming them.
 */
class HelmChartIT {
  private static final String NAMESPACE = "helm-chart-it-" + UUID.randomUUID().toString().substring(0, 8);
  private static KubernetesClient client;

  @BeforeAll
  static void cluster() throws IOException {
    client = LocalCluster.client();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build()).create();
    LocalCluster.ensureCrds(client, chartCrds());
  }

  @AfterAll
  static void cleanUp() {
    if (client != null) {
      client.namespaces().withName(NAMESPACE).delete();
      client.close();
    }
  }

  /** Value sets a user installs with: the defaults, the local cluster's, every option on, Kueue mode. */
  static Stream<Arguments> valueSets() {
    return Stream.of(
        Arguments.of("defaults", List.of()),
        Arguments.of("local cluster", List.of("-f", ClusterTools.localClusterValues())),
        Arguments.of(
            "every option on",
            List.of(
                "--set", "scheduler.extender.enabled=true",
                "--set", "koordlet.enabled=true",
                "--set", "yarnCopilot.enabled=true",
                "--set", "manager.managedNamespaces=koord4j.io/queued=true",
                "--set", "manager.namespaceDefaultQueue=true",
                "--set", "networking.listenAddress=podIP",
                "--set", "manager.dashboard.enabled=true",
                "--set", "manager.dashboard.authentication=true",
                "--set", "manager.dashboard.allowedHosts={dash.example.com}",
                "--set", "sampleQuotaTree.enabled=true",
                // Namespaces that exist: a dry run does not create the ones it would create.
                "--set", "sampleQuotaTree.namespace=" + NAMESPACE,
                "--set", "sampleQuotaTree.queueNamespace=" + NAMESPACE)),
        Arguments.of("Kueue AdmissionCheck mode", List.of("--set", "kueue.admissionCheck.enabled=true")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void lintPasses(String name, List<String> values) {
    ClusterTools.Result lint = ClusterTools.helm(args(List.of("lint", "--strict", ClusterTools.chart()), values));

    assertThat(lint.succeeded()).as(lint.describe()).isTrue();
    assertThat(lint.stdout()).contains("1 chart(s) linted, 0 chart(s) failed");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void theApiServerAcceptsWhatTheChartRenders(String name, List<String> values) {
    ClusterTools.Result template =
        ClusterTools.helm(
            args(List.of("template", "koord4j", ClusterTools.chart(), "-n", NAMESPACE, "--include-crds"), values));
    assertThat(template.succeeded()).as(template.describe()).isTrue();

    createServiceAccounts(template.stdout());

    ClusterTools.Result apply =
        ClusterTools.kubectl(
            template.stdout(), "apply", "--server-side", "--force-conflicts", "--dry-run=server", "-f", "-");

    assertThat(apply.succeeded()).as(apply.describe()).isTrue();
    assertThat(apply.stdout())
        .contains("deployment.apps/koord4j-manager serverside-applied (server dry run)")
        .contains("clusterrole.rbac.authorization.k8s.io/koord4j-manager")
        .contains("serviceaccount/koord4j-manager")
        .contains("customresourcedefinition.apiextensions.k8s.io/queueunits.scheduling.x-k8s.io");
    assertThat(apply.stdout().lines().filter(line -> !line.endsWith("(server dry run)")).toList())
        .as("every object goes through the API server's dry run")
        .isEmpty();
  }

  @Test
  void aWrongTypeIsRefusedNamingTheValue() {
    ClusterTools.Result install = ClusterTools.helm("template", "koord4j", ClusterTools.chart(), "--set", "manager.replicas=two");

    assertThat(install.succeeded()).as(install.describe()).isFalse();
    assertThat(install.stderr())
        .contains("values don't meet the specifications of the schema")
        .contains("/manager/replicas")
        .contains("want integer");
  }

  @Test
  void aMisspeltKeyIsRefusedNamingIt() {
    ClusterTools.Result install = ClusterTools.helm("template", "koord4j", ClusterTools.chart(), "--set", "manager.replica=2");

    assertThat(install.succeeded()).as(install.describe()).isFalse();
    assertThat(install.stderr()).contains("/manager").contains("'replica'");
  }

  @Test
  void aValueOutsideItsRangeIsRefusedNamingIt() {
    ClusterTools.Result install =
        ClusterTools.helm("template", "koord4j", ClusterTools.chart(), "--set", "image.pullPolicy=Sometimes");

    assertThat(install.succeeded()).as(install.describe()).isFalse();
    assertThat(install.stderr()).contains("/image/pullPolicy");
  }

  @Test
  void everyJavaContainerGetsTheChartsJavaEnvironment() {
    ClusterTools.Result template =
        ClusterTools.helm("template", "koord4j", ClusterTools.chart(),
            "--set", "koordlet.enabled=true", "--set", "yarnCopilot.enabled=true");
    assertThat(template.succeeded()).as(template.describe()).isTrue();

    List<Container> javaContainers = rendered(template.stdout()).stream()
        .map(HelmChartIT::podSpec)
        .flatMap(spec -> spec.stream().flatMap(pod -> pod.getContainers().stream()))
        .filter(container -> container.getEnv().stream().anyMatch(env -> env.getName().equals("JAVA_TOOL_OPTIONS")))
        .toList();

    assertThat(javaContainers).extracting(Container::getName)
        .contains("manager", "scheduler", "koordlet", "yarn-copilot");
    assertThat(javaContainers).allSatisfy(container ->
        assertThat(container.getEnv()).as(container.getName())
            .contains(new EnvVarBuilder().withName("MALLOC_ARENA_MAX").withValue("2").build()));
  }

  private static List<HasMetadata> rendered(String manifests) {
    return client.load(new ByteArrayInputStream(manifests.getBytes(StandardCharsets.UTF_8))).items();
  }

  /** The pod spec a workload object runs, if it is one. */
  private static Optional<PodSpec> podSpec(HasMetadata object) {
    if (object instanceof Deployment deployment) {
      return Optional.of(deployment.getSpec().getTemplate().getSpec());
    }
    if (object instanceof DaemonSet daemonSet) {
      return Optional.of(daemonSet.getSpec().getTemplate().getSpec());
    }
    if (object instanceof Job job) {
      return Optional.of(job.getSpec().getTemplate().getSpec());
    }
    return object instanceof Pod pod ? Optional.of(pod.getSpec()) : Optional.empty();
  }

  /**
   * Creates the rendered ServiceAccounts for real: a dry run creates nothing, and the API server
   * admits a pod only when its ServiceAccount exists.
   */
  private static void createServiceAccounts(String rendered) {
    rendered(rendered).stream()
        .filter(ServiceAccount.class::isInstance)
        .forEach(account -> client.resource(account).createOr(NonDeletingOperation::update));
  }

  private static String[] args(List<String> command, List<String> values) {
    List<String> all = new ArrayList<>(command);
    all.addAll(values);
    return all.toArray(String[]::new);
  }

  private static String[] chartCrds() throws IOException {
    try (Stream<Path> files = Files.list(LocalCluster.repoRoot().resolve("helm/koord4j/crds"))) {
      return files
          .map(file -> file.getFileName().toString())
          .filter(file -> file.endsWith("-v1.yml"))
          .map(file -> file.substring(0, file.length() - "-v1.yml".length()))
          .sorted()
          .toArray(String[]::new);
    }
  }
}
