package io.koord4j.scheduler;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.probes.LeaderElection;
import io.koord4j.probes.ListenAddress;
import io.koord4j.probes.NativeTlsClientFactory;
import io.koord4j.probes.ProbeServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.koord4j.scheduler.extender.ExtenderServer;
import io.koord4j.scheduler.extender.ExtenderSettings;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * koord-scheduler. Connects with KUBECONFIG or the in-cluster service account, serves {@code
 * /healthz} and {@code /metrics}, and schedules only while it holds the Lease, so that replicas
 * can stand by. It lists and watches the cluster from the start, as kube-scheduler does, so that a
 * standby takes over with filled caches. Losing the Lease ends the process, as kube-scheduler
 * does: a restart rebuilds all state from the cluster.
 *
 * <p>Environment: {@code SCHEDULER_NAME} (default koord-scheduler), {@code HEALTH_PORT} (default
 * 10251), {@code HEALTH_ADDRESS} (the address of that port, default every address), {@code
 * LEASE_NAMESPACE} (default kube-system).
 *
 * <p>{@code --extender-port <port>} also serves the kube-scheduler extender (DeviceShare and
 * Coscheduling) on that port while leading: {@code urlPrefix: http://127.0.0.1:<port>}, {@code
 * filterVerb: filter}, {@code prioritizeVerb: prioritize}, {@code bindVerb: bind}. It listens on
 * 127.0.0.1 unless {@code --extender-address} says otherwise, which needs {@code
 * --extender-tls-keystore} and {@code --extender-client-ca} (see {@link ExtenderSettings}).
 */
public final class SchedulerMain {
  private SchedulerMain() {}

  private static final Logger LOG = LoggerFactory.getLogger(SchedulerMain.class);

  public static void main(String[] args) throws Exception {
    ExtenderSettings extender = extenderSettings(args, System::getenv);
    String name = env("SCHEDULER_NAME", KoordScheduler.DEFAULT_NAME);
    KoordScheduler.Options options = KoordScheduler.Options.defaults().withSchedulerName(name);
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    KubernetesClient client = NativeTlsClientFactory.client();
    ProbeServer health =
        ProbeServer.start(
            new ProbeServer.Listen(
                ListenAddress.of(env("HEALTH_ADDRESS", "")), Integer.parseInt(env("HEALTH_PORT", "10251")), false),
            registry,
            () -> true);
    KoordScheduler scheduler = new KoordScheduler(client, registry, options);
    LOG.info("{}: health and metrics on port {}", name, health.port());
    LeaderElection election =
        new LeaderElection(
            client,
            env("LEASE_NAMESPACE", "kube-system"),
            name,
            Duration.ofSeconds(15),
            () -> {
              LOG.info("leading after {} ms; starting to schedule", uptimeMillis());
              scheduler.start();
              if (extender != null) {
                serveExtender(extender, scheduler);
              }
            });
    Thread campaign = new Thread(election::run, "leader-election");
    campaign.start();
    // Listing while the Lease is acquired: a leader starts with its caches filled.
    scheduler.watchCluster();
    LOG.info("cluster listed {} ms after the JVM started", uptimeMillis());
    campaign.join();
  }

  private static long uptimeMillis() {
    return ManagementFactory.getRuntimeMXBean().getUptime();
  }

  private static final String USAGE =
      "usage: SchedulerMain [--extender-port <port> [--extender-address <ip>]"
          + " [--extender-tls-keystore <pkcs12 file> --extender-client-ca <pem file>]]";

  /**
   * The extender's settings from the flags, null without {@code --extender-port}; the key store's
   * password is {@code EXTENDER_TLS_KEYSTORE_PASSWORD}.
   */
  static ExtenderSettings extenderSettings(String[] args, Function<String, String> env) {
    Map<String, String> flags = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!EXTENDER_FLAGS.contains(args[i])) {
        throw new IllegalArgumentException("unknown argument " + args[i] + "; " + USAGE);
      }
      if (i + 1 == args.length) {
        throw new IllegalArgumentException(
            args[i] + (args[i].equals("--extender-port") ? " needs a port number" : " needs a value"));
      }
      flags.put(args[i], args[++i]);
    }
    String port = flags.get("--extender-port");
    if (port == null) {
      if (!flags.isEmpty()) {
        throw new IllegalArgumentException("the --extender-* flags need --extender-port");
      }
      return null;
    }
    return new ExtenderSettings(
        flags.getOrDefault("--extender-address", ExtenderSettings.LOOPBACK),
        portNumber(port),
        Optional.ofNullable(flags.get("--extender-tls-keystore")).map(Path::of).orElse(null),
        env.apply("EXTENDER_TLS_KEYSTORE_PASSWORD"),
        Optional.ofNullable(flags.get("--extender-client-ca")).map(Path::of).orElse(null));
  }

  private static final Set<String> EXTENDER_FLAGS =
      Set.of("--extender-port", "--extender-address", "--extender-tls-keystore", "--extender-client-ca");

  private static int portNumber(String value) {
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--extender-port: \"" + value + "\" is not a port number");
    }
  }

  private static void serveExtender(ExtenderSettings settings, KoordScheduler scheduler) {
    try {
      ExtenderServer server = new ExtenderServer(settings, scheduler.extender());
      LOG.info(
          "kube-scheduler extender on {} ({})",
          server.address(),
          settings.tls() ? "HTTPS, client certificates required" : "HTTP");
    } catch (IOException e) {
      LOG.error("cannot serve the extender on {}:{}; exiting", settings.address(), settings.port(), e);
      System.exit(1);
    }
  }

  private static String env(String key, String fallback) {
    String value = System.getenv(key);
    return value == null || value.isBlank() ? fallback : value;
  }
}
