package io.koord4j.manager.it;

import io.koord4j.testing.LocalCluster;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The manager as a separate JVM, as it runs in production: its own main class, Lease and HTTP
 * port, on this test's classpath; its output goes to a log file under {@code target/}.
 */
public final class ManagerProcess {
  private final Process process;
  final Path log;

  private final String leaseIdentity;

  private ManagerProcess(Process process, Path log, String leaseIdentity) {
    this.process = process;
    this.log = log;
    this.leaseIdentity = leaseIdentity;
  }

  /**
   * @param namespace where the Lease lives
   * @param leaseName a Lease no other manager uses
   * @param leaseDuration how soon a successor may take over after a crash
   */
  public static ManagerProcess start(
      String namespace, String leaseName, Duration leaseDuration, String logName)
      throws IOException {
    return start(namespace, leaseName, leaseDuration, logName, List.of());
  }

  /** As {@link #start(String, String, Duration, String)}, with more JVM options (e.g. a profiler). */
  public static ManagerProcess start(
      String namespace, String leaseName, Duration leaseDuration, String logName, List<String> jvmOptions)
      throws IOException {
    Path log = Path.of("target", logName + ".log");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx512m");
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.koord4j.manager.ManagerMain"));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    Map<String, String> env = builder.environment();
    env.put("KUBECONFIG", LocalCluster.kubeconfig().toString());
    env.put("KOORD4J_NAMESPACE", namespace);
    env.put("KOORD4J_LEASE_NAME", leaseName);
    env.put("KOORD4J_LEASE_DURATION_SECONDS", Long.toString(leaseDuration.toSeconds()));
    env.put("KOORD4J_HTTP_PORT", Integer.toString(freePort()));
    env.put("KOORD4J_LEASE_IDENTITY", logName);
    return new ManagerProcess(builder.start(), log, logName);
  }

  /** kill -9: no shutdown hook runs and the Lease is left to expire. */
  public void kill() throws InterruptedException {
    process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
  }

  /** A clean stop (SIGTERM), which releases the Lease. */
  public void stop() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      kill();
    }
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** Where its output goes. */
  public Path log() {
    return log;
  }

  /** The identity it holds the Lease under: its log's name. */
  public String leaseIdentity() {
    return leaseIdentity;
  }

  /** SIGSTOP: the process stops where it is, Lease renewals included, until {@link #resume()}. */
  public void pause() throws IOException, InterruptedException {
    signal("STOP");
  }

  /** SIGCONT after {@link #pause()}. */
  public void resume() throws IOException, InterruptedException {
    signal("CONT");
  }

  private void signal(String name) throws IOException, InterruptedException {
    int exit = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start().waitFor();
    if (exit != 0) {
      throw new IllegalStateException("kill -" + name + " " + process.pid() + " exited with " + exit);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  @Override
  public String toString() {
    return "manager pid " + process.pid() + " (log " + log.toAbsolutePath() + ")";
  }
}
