package io.koord4j.e2e.helm;

import io.koord4j.api.WellKnown;
import io.koord4j.quota.kube.SystemQuotas;
import io.koord4j.testing.LocalCluster;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The helm and kubectl of the local cluster's cache ({@code hack/local-cluster/cluster.sh tool}), run
 * against the local cluster's kubeconfig.
 */
final class ClusterTools {
  private static final long TIMEOUT_MINUTES = 10;

  private ClusterTools() {}

  /** What a command printed and how it ended. */
  record Result(List<String> command, int exitCode, String stdout, String stderr) {
    boolean succeeded() {
      return exitCode == 0;
    }

    /** The command line and its output, for assertion messages. */
    String describe() {
      return String.join(" ", command) + " exited " + exitCode + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr;
    }
  }

  static Result helm(String... args) {
    return run(null, LocalCluster.tool("helm"), args);
  }

  /** kubectl with the given standard input, e.g. the output of {@code helm template}. */
  static Result kubectl(String stdin, String... args) {
    List<String> withConfig = new ArrayList<>(List.of("--kubeconfig", LocalCluster.kubeconfig().toString()));
    withConfig.addAll(List.of(args));
    return run(stdin, LocalCluster.tool("kubectl"), withConfig.toArray(String[]::new));
  }

  /**
   * Binds the samples' quotas to the namespace alone: the samples' jobs name those quotas, and
   * koord4j admits a job only to a quota bound to its namespace.
   */
  static Result bindSampleQuotas(String namespace, String... quotas) {
    List<String> args = new ArrayList<>(
        List.of("annotate", "--overwrite", "-n", SystemQuotas.NAMESPACE, "elasticquotas.scheduling.sigs.k8s.io"));
    args.addAll(List.of(quotas));
    args.add(WellKnown.QUOTA_NAMESPACES + "=[\"" + namespace + "\"]");
    return kubectl(null, args.toArray(String[]::new));
  }

  /** The chart's folder in this checkout. */
  static String chart() {
    return LocalCluster.repoRoot().resolve("helm/koord4j").toString();
  }

  /** The values of the local cluster (hostNetwork, its API server, its ports). */
  static String localClusterValues() {
    return LocalCluster.repoRoot().resolve("hack/local-cluster/helm-values.yaml").toString();
  }

  private static Result run(String stdin, Path binary, String... args) {
    List<String> command = new ArrayList<>(List.of(binary.toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("KUBECONFIG", LocalCluster.kubeconfig().toString());
    try {
      Process process = builder.start();
      CompletableFuture<String> out = drain(process.getInputStream());
      CompletableFuture<String> err = drain(process.getErrorStream());
      try (OutputStream in = process.getOutputStream()) {
        if (stdin != null) {
          in.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
      }
      if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        throw new IllegalStateException(command + " did not finish in " + TIMEOUT_MINUTES + " min");
      }
      return new Result(command, process.exitValue(), out.join(), err.join());
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + command, e);
    }
  }

  private static CompletableFuture<String> drain(java.io.InputStream stream) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
          } catch (IOException e) {
            throw new IllegalStateException(e);
          }
        });
  }
}
