package io.koord4j.testing;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real control plane started by {@code hack/local-cluster/cluster.sh up}. Integration tests
 * reach it through KUBECONFIG; when it is not there they fail and say how to start it.
 */
public final class LocalCluster {
  private static final String CRD_FILE_SUFFIX = "-v1.yml";

  private LocalCluster() {}

  public static final String HOW_TO_START =
      "start the local cluster with: hack/local-cluster/cluster.sh up"
          + " && export KUBECONFIG=$(hack/local-cluster/cluster.sh kubeconfig)"
          + " (mvn -B verify does both)";

  /** Path of the kubeconfig the tests use. */
  public static Path kubeconfig() {
    String path = System.getenv("KUBECONFIG");
    if (path == null || path.isBlank()) {
      throw new IllegalStateException("KUBECONFIG is not set; " + HOW_TO_START);
    }
    Path file = Path.of(path);
    if (!Files.isReadable(file)) {
      throw new IllegalStateException("KUBECONFIG " + file + " does not exist; " + HOW_TO_START);
    }
    return file;
  }

  /** An admin client of the local cluster, checked to answer before it is returned. */
  public static KubernetesClient client() {
    Config config;
    try {
      config = Config.fromKubeconfig(Files.readString(kubeconfig()));
    } catch (java.io.IOException e) {
      throw new IllegalStateException("cannot read " + kubeconfig() + "; " + HOW_TO_START, e);
    }
    KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
    try {
      client.getKubernetesVersion();
    } catch (RuntimeException e) {
      client.close();
      throw new IllegalStateException(
          "the local cluster at " + config.getMasterUrl() + " does not answer; " + HOW_TO_START, e);
    }
    return client;
  }

  /** Runs {@code hack/local-cluster/cluster.sh} with the given arguments and returns its output. */
  public static String script(String... args) {
    java.util.List<String> command = new java.util.ArrayList<>();
    command.add("bash");
    command.add(repoRoot().resolve("hack/local-cluster/cluster.sh").toString());
    command.addAll(java.util.List.of(args));
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes());
      if (process.waitFor() != 0) {
        throw new IllegalStateException(String.join(" ", command) + " failed:\n" + output);
      }
      return output;
    } catch (java.io.IOException e) {
      throw new IllegalStateException("cannot run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + command, e);
    }
  }

  /**
   * A binary of the local cluster's cache (kubectl, helm, kueue, kube-scheduler, ...), built by
   * {@code cluster.sh tool} the first time a test asks for it.
   */
  public static Path tool(String name) {
    String output = script("tool", name).strip();
    Path binary = Path.of(output.substring(output.lastIndexOf('\n') + 1));
    if (!Files.isExecutable(binary)) {
      throw new IllegalStateException("cluster.sh tool " + name + " printed no executable:\n" + output);
    }
    return binary;
  }

  /**
   * Applies the named CRDs from {@code crds/manifests} when the cluster lacks them and waits until
   * each is established. They stay installed: other tests on the shared cluster may use them.
   */
  public static void ensureCrds(KubernetesClient client, String... names) {
    for (String crd : names) {
      if (client.apiextensions().v1().customResourceDefinitions().withName(crd).get() == null) {
        applyCrds(client, crd);
      }
    }
  }

  /**
   * Ensures every CRD of {@code crds/manifests}: the manager and the webhook watch all of them, so
   * a process started on a fresh cluster needs them all.
   */
  public static void ensureAllCrds(KubernetesClient client) {
    try (java.util.stream.Stream<Path> files = Files.list(repoRoot().resolve("crds/manifests"))) {
      ensureCrds(client, files.map(file -> file.getFileName().toString())
          .filter(name -> name.endsWith(CRD_FILE_SUFFIX))
          .map(name -> name.substring(0, name.length() - CRD_FILE_SUFFIX.length()))
          .sorted()
          .toArray(String[]::new));
    } catch (java.io.IOException e) {
      throw new IllegalStateException("cannot list crds/manifests", e);
    }
  }

  /**
   * Applies the named CRDs from this checkout's {@code crds/manifests} even if the cluster has
   * them, for tests of fields an older copy would prune, and waits until each is established.
   */
  public static void applyCrds(KubernetesClient client, String... names) {
    for (String crd : names) {
      Path file = repoRoot().resolve("crds/manifests/" + crd + CRD_FILE_SUFFIX);
      try (java.io.InputStream in = Files.newInputStream(file)) {
        client
            .resource(Serialization.unmarshal(in, CustomResourceDefinition.class))
            .fieldManager("koord4j-tests")
            .forceConflicts()
            .serverSideApply();
      } catch (java.io.IOException e) {
        throw new IllegalStateException("cannot read " + file, e);
      }
      client
          .apiextensions()
          .v1()
          .customResourceDefinitions()
          .withName(crd)
          .waitUntilCondition(LocalCluster::isEstablished, 60, TimeUnit.SECONDS);
    }
  }

  /** Whether the API server serves the CRD's resource. */
  public static boolean isEstablished(CustomResourceDefinition crd) {
    return crd != null
        && crd.getStatus() != null
        // Null until the API server has looked at a CRD just created.
        && crd.getStatus().getConditions() != null
        && crd.getStatus().getConditions().stream()
            .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  /**
   * Adds labels to a node with a merge patch: it carries no resourceVersion, so the status updates
   * KWOK and the node controller keep making cannot make it conflict.
   */
  public static void labelNode(KubernetesClient client, String node, Map<String, String> labels) {
    patchNodeMetadata(client, node, "labels", labels);
  }

  /** Adds annotations to a node with a merge patch, for the same reason as {@link #labelNode}. */
  public static void annotateNode(KubernetesClient client, String node, Map<String, String> annotations) {
    patchNodeMetadata(client, node, "annotations", annotations);
  }

  private static void patchNodeMetadata(KubernetesClient client, String node, String field, Map<String, String> values) {
    Map<String, Object> patch = Map.of("metadata", Map.of(field, values));
    client
        .nodes()
        .withName(node)
        .patch(PatchContext.of(PatchType.JSON_MERGE), Serialization.asJson(patch));
  }

  /**
   * Creates a namespace named {@code prefix} plus a random suffix and waits until its default
   * ServiceAccount exists, so that pods can be created in it at once; returns its name.
   */
  public static String createNamespace(KubernetesClient client, String prefix) {
    String name = prefix + "-" + java.util.UUID.randomUUID().toString().substring(0, 8);
    client.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder()
        .withNewMetadata().withName(name).endMetadata().build()).serverSideApply();
    client.serviceAccounts().inNamespace(name).withName("default")
        .waitUntilCondition(java.util.Objects::nonNull, 30, TimeUnit.SECONDS);
    return name;
  }

  /** The repository root, for tests that read samples, manifests or scripts. */
  public static Path repoRoot() {
    String root = System.getProperty("koord4j.repo.root");
    Path dir = root != null ? Path.of(root) : Path.of("").toAbsolutePath();
    while (dir != null && !Files.exists(dir.resolve("hack/local-cluster/cluster.sh"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("cannot find the repository root from " + root);
    }
    return dir;
  }
}
