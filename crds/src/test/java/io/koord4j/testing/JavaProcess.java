package io.koord4j.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A koord4j component's main class in a JVM of its own on this test's class path, talking to the
 * local cluster, as it runs in production; its output goes to a log file. Tests kill, pause and
 * stop it as failures would. It ends with the test JVM (see {@link TiedToParent}).
 */
public class JavaProcess {
  private final Process process;
  private final Path log;

  protected JavaProcess(JavaProcess started) {
    this.process = started.process;
    this.log = started.log;
  }

  private JavaProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /**
   * @param jvmOptions e.g. the heap size
   * @param env added to this process's environment, with {@code KUBECONFIG} of the local cluster
   */
  public static JavaProcess start(String mainClass, List<String> jvmOptions, Map<String, String> env, Path log)
      throws IOException {
    List<String> command = command(jvmOptions, ProcessHandle.current().pid(), mainClass);
    Files.createDirectories(log.toAbsolutePath().getParent());
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().put("KUBECONFIG", LocalCluster.kubeconfig().toAbsolutePath().toString());
    builder.environment().putAll(env);
    return new JavaProcess(builder.start(), log);
  }

  /** The command that runs {@code mainClass} on this JVM's class path until {@code parent} is gone. */
  static List<String> command(List<String> jvmOptions, long parent, String mainClass) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), TiedToParent.class.getName(),
        Long.toString(parent), mainClass));
    return command;
  }

  /** kill -9: no shutdown hook runs and any Lease is left to expire. */
  public void kill() throws InterruptedException {
    process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
  }

  /** A clean stop (SIGTERM), which lets it release its Lease. */
  public void stop() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      kill();
    }
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** SIGSTOP: the process stops where it is, Lease renewals included, until {@link #resume()}. */
  public void pause() throws IOException, InterruptedException {
    signal("STOP");
  }

  /** SIGCONT after {@link #pause()}. */
  public void resume() throws IOException, InterruptedException {
    signal("CONT");
  }

  public Path log() {
    return log;
  }

  /** The last lines of its log, for a failure message that says why it exited. */
  public String logTail(int lines) {
    try {
      List<String> all = Files.readAllLines(log);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(cannot read " + log + ": " + e.getMessage() + ")";
    }
  }

  /** Its process id, e.g. for {@code jcmd} or {@code /proc/<pid>/status}. */
  public long pid() {
    return process.pid();
  }

  /** A port free at the time of asking, for a process's HTTP server. */
  public static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private void signal(String name) throws IOException, InterruptedException {
    int exit = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start().waitFor();
    if (exit != 0) {
      throw new IllegalStateException("kill -" + name + " " + process.pid() + " exited with " + exit);
    }
  }

  @Override
  public String toString() {
    return "pid " + process.pid() + " (log " + log.toAbsolutePath() + ")";
  }
}
