package io.koord4j.manager;

import io.koord4j.probes.ListenAddress;
import io.koord4j.probes.ProbeServer;
import io.koord4j.probes.SharedPort;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

/**
 * How the manager runs, from the environment (and {@code --webhook} on the command line).
 *
 * @param namespace koord4j's own namespace: the leader Lease and the webhook's Secret live here
 *     ({@code KOORD4J_NAMESPACE}, default {@code koord4j-system})
 * @param leaseName the leader-election Lease ({@code KOORD4J_LEASE_NAME}, default {@code
 *     koord4j-manager})
 * @param leaseDuration how long a leader's Lease holds without renewal, and so how soon another
 *     replica takes over after a crash ({@code KOORD4J_LEASE_DURATION_SECONDS}, default 15)
 * @param httpAddress the address of {@code httpPort} ({@code KOORD4J_HTTP_ADDRESS}, e.g. the pod's
 *     IP; default every address)
 * @param httpPort /healthz, /readyz and /metrics ({@code KOORD4J_HTTP_PORT}, default 8080)
 * @param webhook whether to serve the admission webhook in this process ({@code --webhook} or
 *     {@code KOORD4J_WEBHOOK=true}); it is configured by the environment as when run alone
 *     (see {@code WebhookSettings.fromEnvironment})
 * @param kueueAdmissionCheck run as a Kueue AdmissionCheck controller instead of koord4j's own
 *     queues ({@code --kueue-admission-check} or {@code KOORD4J_KUEUE_ADMISSION_CHECK=true}):
 *     Kueue then owns the jobs and their queueing, koord4j only decides gang feasibility
 * @param sharedPorts listen with SO_REUSEPORT ({@code KOORD4J_SHARED_PORTS=true}), so that in the
 *     node's network a new replica starts on the same host while its predecessor still serves
 * @param readyFile a file that exists exactly while this replica is ready ({@code
 *     KOORD4J_READY_FILE}), for a readiness check that cannot mistake another replica's answer
 *     for this one's, as an HTTP check on a shared port would; empty for none
 * @param dashboard serve the read-only dashboard at {@code /ui} on {@code httpPort} ({@code
 *     --dashboard} or {@code KOORD4J_DASHBOARD=true}; off by default)
 */
public record ManagerSettings(
    String namespace,
    String leaseName,
    Duration leaseDuration,
    Optional<String> httpAddress,
    int httpPort,
    boolean webhook,
    boolean kueueAdmissionCheck,
    boolean sharedPorts,
    Optional<Path> readyFile,
    boolean dashboard) {

  public static ManagerSettings from(Map<String, String> env, String[] args) {
    return new ManagerSettings(
        env.getOrDefault("KOORD4J_NAMESPACE", "koord4j-system"),
        env.getOrDefault("KOORD4J_LEASE_NAME", "koord4j-manager"),
        Duration.ofSeconds(
            Long.parseLong(env.getOrDefault("KOORD4J_LEASE_DURATION_SECONDS", "15"))),
        ListenAddress.of(env.get("KOORD4J_HTTP_ADDRESS")),
        Integer.parseInt(env.getOrDefault("KOORD4J_HTTP_PORT", "8080")),
        flag("--webhook", "KOORD4J_WEBHOOK", env, args),
        flag("--kueue-admission-check", "KOORD4J_KUEUE_ADMISSION_CHECK", env, args),
        SharedPort.requested(env),
        Optional.ofNullable(env.get("KOORD4J_READY_FILE")).filter(file -> !file.isBlank()).map(Path::of),
        flag("--dashboard", "KOORD4J_DASHBOARD", env, args));
  }

  private static boolean flag(String option, String variable, Map<String, String> env, String[] args) {
    return Arrays.asList(args).contains(option)
        || Boolean.parseBoolean(env.getOrDefault(variable, "false"));
  }

  /** Where the probes, metrics and dashboard listen. */
  public ProbeServer.Listen httpListen() {
    return new ProbeServer.Listen(httpAddress, httpPort, sharedPorts);
  }

  /** How long the leader keeps trying to renew before it gives up: two thirds of the lease. */
  public Duration renewDeadline() {
    return leaseDuration.multipliedBy(2).dividedBy(3);
  }

  /** How often replicas try to acquire or renew: the Kubernetes default ratio of 2 s to 15 s. */
  public Duration retryPeriod() {
    return leaseDuration.multipliedBy(2).dividedBy(15);
  }
}
