package io.koord4j.bench;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.scheduler.SchedulerMain;
import io.koord4j.testing.LocalCluster;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A scheduler run by a benchmark as a process of its own, serving one unique scheduler name, so
 * that both schedulers compared are measured the same way: as separate processes with their own
 * API clients, started once their pods exist. Output goes to {@code target/bench/logs/<name>.log}.
 */
final class SchedulerProcess implements AutoCloseable {

  /** Starts a scheduler process serving one unique scheduler name. */
  interface Starter {
    SchedulerProcess start(String schedulerName) throws IOException;
  }

  /** The CRDs koord-scheduler watches, installed so that it runs with all its informers. */
  static final String[] KOORD_SCHEDULER_CRDS = {
    "elasticquotas.scheduling.sigs.k8s.io",
    "podgroups.scheduling.sigs.k8s.io",
    "nodemetrics.slo.koordinator.sh",
    "devices.scheduling.koordinator.sh"
  };

  /** kube-scheduler's client limits as the local cluster's own kube-scheduler is started. */
  private static final int KUBE_API_QPS = 500;
  private static final int KUBE_API_BURST = 1000;

  private final Process process;
  private final Path log;
  private final long startedNanos;
  /** Removes what the process leaves in the cluster, e.g. its Lease. */
  private final Runnable cleanup;

  private SchedulerProcess(ProcessBuilder builder, Path log, Runnable cleanup) throws IOException {
    this.cleanup = cleanup;
    this.log = log;
    Files.createDirectories(log.getParent());
    builder.redirectErrorStream(true).redirectOutput(log.toFile());
    startedNanos = System.nanoTime();
    process = builder.start();
  }

  /**
   * The local cluster's kube-scheduler binary with its default profile under {@code name}, the
   * same client limits as the cluster's own instance, no leader election and no serving port.
   */
  static SchedulerProcess kubeScheduler(String name) throws IOException {
    Path config = logDir().resolve(name + ".yaml");
    Files.createDirectories(config.getParent());
    Files.writeString(
        config,
        String.join(
            "\n",
            "apiVersion: kubescheduler.config.k8s.io/v1",
            "kind: KubeSchedulerConfiguration",
            "clientConnection:",
            "  kubeconfig: " + LocalCluster.kubeconfig().toAbsolutePath(),
            "  qps: " + KUBE_API_QPS,
            "  burst: " + KUBE_API_BURST,
            "leaderElection:",
            "  leaderElect: false",
            "profiles:",
            "- schedulerName: " + name,
            ""));
    return new SchedulerProcess(
        new ProcessBuilder(LocalCluster.tool("kube-scheduler").toString(), "--config", config.toString(), "--secure-port", "0"),
        logDir().resolve(name + ".log"),
        () -> {});
  }

  /**
   * koord-scheduler's main in a JVM of its own, on this process's class path, with the JVM options
   * the Helm chart gives it; its Lease (named after the scheduler, in kube-system) is deleted when
   * it stops.
   */
  static SchedulerProcess koordScheduler(KubernetesClient client, String name) throws IOException {
    return koordScheduler(client, name, List.of());
  }

  /**
   * koord-scheduler with extra JVM options, e.g. a flight recording; {@code {name}} in an option
   * stands for the scheduler's name. They follow the default class path and the chart's options,
   * so a {@code -cp} among them replaces the class path and an option the chart sets is overridden.
   */
  static SchedulerProcess koordScheduler(KubernetesClient client, String name, List<String> jvmOptions)
      throws IOException {
    List<String> options = new ArrayList<>(ChartJvmOptions.of("scheduler"));
    jvmOptions.stream().map(o -> o.replace("{name}", name)).forEach(options::add);
    ProcessBuilder builder = asShipped(java(options, SchedulerMain.class, List.of()));
    builder.environment().put("SCHEDULER_NAME", name);
    builder.environment().put("HEALTH_PORT", Integer.toString(freePort()));
    return new SchedulerProcess(
        builder,
        logDir().resolve(name + ".log"),
        () -> client.leases().inNamespace("kube-system").withName(name).delete());
  }

  /**
   * The no-decision binder of B4 ({@link BindingCeiling}) on the pods of {@code name}, in a JVM
   * started as koord-scheduler's is, since it stands for what koord-scheduler's client can reach.
   */
  static SchedulerProcess bindingCeiling(String name, String pool) throws IOException {
    return new SchedulerProcess(
        asShipped(java(ChartJvmOptions.of("scheduler"), BindingCeiling.class, List.of(name, pool))),
        logDir().resolve(name + ".log"),
        () -> {});
  }

  /** With the environment the Helm chart gives koord-scheduler's container. */
  private static ProcessBuilder asShipped(ProcessBuilder builder) {
    builder.environment().putAll(ChartJvmOptions.environment("scheduler"));
    return builder;
  }

  /** A JVM running {@code main} on this process's class path, connected to the local cluster. */
  private static ProcessBuilder java(List<String> jvmOptions, Class<?> main, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of("-cp", System.getProperty("java.class.path")));
    command.addAll(jvmOptions);
    command.add(main.getName());
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("KUBECONFIG", LocalCluster.kubeconfig().toAbsolutePath().toString());
    return builder;
  }

  long startedNanos() {
    return startedNanos;
  }

  /** Waits until the process has printed {@code text}. */
  void awaitOutput(String text, Duration timeout) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!Files.readString(log).contains(text)) {
      checkAlive();
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("no \"" + text + "\" after " + timeout + " in " + log.toAbsolutePath());
      }
      Thread.sleep(200);
    }
  }

  /** Fails with the log's place if the process has ended on its own. */
  void checkAlive() {
    if (!process.isAlive()) {
      throw new IllegalStateException(
          "the scheduler exited with " + process.exitValue() + "; see " + logDir().toAbsolutePath());
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
    cleanup.run();
  }

  private static Path logDir() {
    return Path.of("target", "bench", "logs");
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
