package io.koord4j.manager.it;

import io.koord4j.testing.JavaProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The manager as a separate JVM, as it runs in production: its own main class, Lease and HTTP port. */
public final class ManagerProcess extends JavaProcess {
  private final String leaseIdentity;

  private ManagerProcess(JavaProcess started, String leaseIdentity) {
    super(started);
    this.leaseIdentity = leaseIdentity;
  }

  /**
   * @param namespace where the Lease lives
   * @param leaseName a Lease no other manager uses
   * @param leaseDuration how soon a successor may take over after a crash
   * @param logName its log under {@code target/}, and its Lease identity
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
    return start(namespace, leaseName, leaseDuration, logName, jvmOptions, Map.of());
  }

  /** As {@link #start(String, String, Duration, String, List)}, with more settings (e.g. its webhook's). */
  public static ManagerProcess start(
      String namespace, String leaseName, Duration leaseDuration, String logName, List<String> jvmOptions,
      Map<String, String> settings)
      throws IOException {
    Map<String, String> env = new HashMap<>(settings);
    env.putAll(Map.of(
        "KOORD4J_NAMESPACE", namespace,
        "KOORD4J_LEASE_NAME", leaseName,
        "KOORD4J_LEASE_DURATION_SECONDS", Long.toString(leaseDuration.toSeconds()),
        "KOORD4J_HTTP_PORT", Integer.toString(freePort()),
        "KOORD4J_LEASE_IDENTITY", logName));
    List<String> options = new ArrayList<>(List.of("-Xmx512m"));
    options.addAll(jvmOptions);
    JavaProcess started = JavaProcess.start(
        "io.koord4j.manager.ManagerMain", options, env, Path.of("target", logName + ".log"));
    return new ManagerProcess(started, logName);
  }

  /** The identity it holds the Lease under: its log's name. */
  public String leaseIdentity() {
    return leaseIdentity;
  }

  @Override
  public String toString() {
    return "manager " + super.toString();
  }
}
