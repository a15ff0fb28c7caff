package io.koord4j.yarn;

import io.koord4j.probes.ListenAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * How the copilot runs, from the environment.
 *
 * @param namespace where its leader Lease lives ({@code KOORD4J_NAMESPACE}, default {@code
 *     koord4j-system})
 * @param leaseName the leader-election Lease ({@code KOORD4J_LEASE_NAME}, default {@code
 *     koord4j-yarn-copilot})
 * @param leaseDuration how long a leader's Lease holds without renewal ({@code
 *     KOORD4J_LEASE_DURATION_SECONDS}, default 15)
 * @param httpAddress the address of {@code httpPort} ({@code KOORD4J_HTTP_ADDRESS}, e.g. the pod's
 *     IP; default every address)
 * @param httpPort Prometheus {@code /metrics} and the {@code /-/healthy} probe ({@code
 *     KOORD4J_HTTP_PORT}, default 8080)
 * @param hadoopConfDir the YARN clusters' configuration ({@code HADOOP_CONF_DIR}, default {@code
 *     /etc/hadoop/conf}; see {@link ClusterConfigs})
 * @param period how often each cluster is synced ({@code KOORD4J_YARN_SYNC_PERIOD_MS}, default 1000)
 * @param nodeManagers which pods are NodeManagers ({@code KOORD4J_YARN_NODE_MANAGER_NAMESPACES} and
 *     {@code KOORD4J_YARN_NODE_MANAGER_SERVICE_ACCOUNTS}, comma-separated; see {@link
 *     NodeManagerPolicy})
 */
public record CopilotSettings(
    String namespace,
    String leaseName,
    Duration leaseDuration,
    Optional<String> httpAddress,
    int httpPort,
    Path hadoopConfDir,
    Duration period,
    NodeManagerPolicy nodeManagers) {

  public static CopilotSettings from(Map<String, String> env) {
    String namespace = env.getOrDefault("KOORD4J_NAMESPACE", "koord4j-system");
    return new CopilotSettings(
        namespace,
        env.getOrDefault("KOORD4J_LEASE_NAME", "koord4j-yarn-copilot"),
        Duration.ofSeconds(positive(env, "KOORD4J_LEASE_DURATION_SECONDS", "15")),
        ListenAddress.of(env.get("KOORD4J_HTTP_ADDRESS")),
        Math.toIntExact(port(env)),
        Path.of(env.getOrDefault("HADOOP_CONF_DIR", "/etc/hadoop/conf")),
        Duration.ofMillis(positive(env, "KOORD4J_YARN_SYNC_PERIOD_MS", "1000")),
        new NodeManagerPolicy(
            names(env, "KOORD4J_YARN_NODE_MANAGER_NAMESPACES", namespace),
            names(
                env,
                "KOORD4J_YARN_NODE_MANAGER_SERVICE_ACCOUNTS",
                NodeManagerPolicy.DEFAULT_SERVICE_ACCOUNT)));
  }

  /** A comma-separated list of names; one that names none would accept no NodeManager at all. */
  private static Set<String> names(Map<String, String> env, String name, String fallback) {
    Set<String> names =
        Arrays.stream(env.getOrDefault(name, fallback).split(","))
            .map(String::trim)
            .filter(entry -> !entry.isEmpty())
            .collect(Collectors.toSet());
    if (names.isEmpty()) {
      throw new IllegalArgumentException(name + " must name at least one, got '" + env.get(name) + "'");
    }
    return names;
  }

  private static long positive(Map<String, String> env, String name, String fallback) {
    return number(env, name, fallback, 1, Long.MAX_VALUE, "a positive whole number");
  }

  /** 0 picks a free port. */
  private static long port(Map<String, String> env) {
    return number(env, "KOORD4J_HTTP_PORT", "8080", 0, 65_535, "a port from 0 to 65535");
  }

  private static long number(
      Map<String, String> env, String name, String fallback, long min, long max, String rule) {
    String value = env.getOrDefault(name, fallback);
    try {
      long parsed = Long.parseLong(value.trim());
      if (parsed >= min && parsed <= max) {
        return parsed;
      }
    } catch (NumberFormatException e) {
      // Reported below.
    }
    throw new IllegalArgumentException(name + " must be " + rule + ", got '" + value + "'");
  }
}
