package io.koord4j.yarn;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.koord4j.testing.LocalCluster;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The copilot's ServiceAccount and RBAC exactly as the Helm chart renders them, installed in a test
 * namespace; {@link #client()} acts as that account, so that the copilot gets nothing more.
 */
final class ChartAccount implements AutoCloseable {
  private static final List<Class<? extends HasMetadata>> ACCESS =
      List.of(ServiceAccount.class, ClusterRole.class, ClusterRoleBinding.class, Role.class, RoleBinding.class);

  private final KubernetesClient admin;
  private final String namespace;
  private final List<HasMetadata> objects;

  private ChartAccount(KubernetesClient admin, String namespace, List<HasMetadata> objects) {
    this.admin = admin;
    this.namespace = namespace;
    this.objects = objects;
  }

  /** Renders the chart as release {@code release} in {@code namespace} and creates its copilot's access. */
  static ChartAccount install(KubernetesClient admin, String release, String namespace) throws Exception {
    String rendered =
        helm("template", release, LocalCluster.repoRoot().resolve("helm/koord4j").toString(), "-n", namespace,
            "--set", "yarnCopilot.enabled=true", "-s", "templates/yarn-copilot/deployment.yaml");
    List<HasMetadata> objects =
        admin.load(new ByteArrayInputStream(rendered.getBytes(StandardCharsets.UTF_8))).items().stream()
            .filter(object -> ACCESS.contains(object.getClass()))
            .toList();
    objects.forEach(object -> admin.resource(object).create());
    return new ChartAccount(admin, namespace, objects);
  }

  /** The Lease the chart lets the copilot take. */
  String leaseName() {
    return objects.stream().filter(Role.class::isInstance).map(Role.class::cast)
        .flatMap(role -> role.getRules().stream())
        .flatMap(rule -> rule.getResourceNames().stream())
        .findFirst().orElseThrow();
  }

  /** A client acting as the chart's ServiceAccount. */
  KubernetesClient client() {
    String account = objects.stream().filter(ServiceAccount.class::isInstance).findFirst().orElseThrow()
        .getMetadata().getName();
    return new KubernetesClientBuilder()
        .withConfig(new ConfigBuilder(admin.getConfiguration())
            .withImpersonateUsername("system:serviceaccount:" + namespace + ":" + account)
            .withImpersonateGroups("system:serviceaccounts", "system:serviceaccounts:" + namespace, "system:authenticated")
            .build())
        .build();
  }

  @Override
  public void close() {
    objects.stream()
        .filter(object -> object instanceof ClusterRole || object instanceof ClusterRoleBinding)
        .forEach(object -> admin.resource(object).delete());
  }

  private static String helm(String... args) throws IOException, InterruptedException {
    Path helm = LocalCluster.tool("helm");
    Path out = Files.createTempFile("chart", ".yaml");
    try {
      Process process = new ProcessBuilder(concat(helm.toString(), args))
          .redirectErrorStream(true).redirectOutput(out.toFile()).start();
      if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
        process.destroyForcibly();
        throw new IllegalStateException("helm " + String.join(" ", args) + " failed:\n" + Files.readString(out));
      }
      return Files.readString(out);
    } finally {
      Files.delete(out);
    }
  }

  private static List<String> concat(String first, String... rest) {
    return java.util.stream.Stream.concat(java.util.stream.Stream.of(first), java.util.stream.Stream.of(rest)).toList();
  }
}
