package io.koord4j.scheduler.extender;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.koord4j.scheduler.KoordScheduler;
import io.koord4j.scheduler.SchedulerTestBed;
import io.koord4j.scheduler.plugins.deviceshare.GpuPlacementContract;
import io.koord4j.testing.LocalCluster;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The stock kube-scheduler, run as a second process with a profile of its own whose extender is
 * koord-scheduler's endpoint (in this process), places the GPU pods by the same rules: the
 * extender filters and scores nodes with DeviceShare and binds, writing {@code device-allocated}.
 */
class ExtenderIT extends GpuPlacementContract {

  @Override
  protected String startScheduler(SchedulerTestBed bed) throws Exception {
    KoordScheduler koord =
        bed.startScheduler(KoordScheduler.DEFAULT_NAME + "-" + bed.run(), new SimpleMeterRegistry());
    ExtenderServer extender = bed.closeLater(new ExtenderServer(ExtenderSettings.onPort(0), koord.extender()));
    String name = "kube-scheduler-extender-" + bed.run();
    Path dir = Files.createDirectories(Path.of("target", "extender-it-" + bed.run()));
    Path config = dir.resolve("kube-scheduler.yaml");
    Files.writeString(config, configuration(name, extender.port()));
    Path log = dir.resolve("kube-scheduler.log");
    String kubeconfig = LocalCluster.kubeconfig().toString();
    Process process =
        new ProcessBuilder(
                LocalCluster.tool("kube-scheduler").toString(),
                "--config", config.toString(),
                "--bind-address", "127.0.0.1",
                "--secure-port", Integer.toString(freePort()),
                "--authentication-kubeconfig", kubeconfig,
                "--authorization-kubeconfig", kubeconfig,
                // Level 2 logs each pod's scheduling outcome, which a failed wait prints.
                "-v=2")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    bed.closeLater(
        () -> {
          process.destroy();
          process.waitFor(10, TimeUnit.SECONDS);
        });
    bed.explainWaitsWith(() -> state(process, log));
    assertThat(process.waitFor(3, TimeUnit.SECONDS))
        .as("kube-scheduler exited at once; see %s", log.toAbsolutePath())
        .isFalse();
    return name;
  }

  /** Whether kube-scheduler still runs, and its last log lines about pods. */
  private static String state(Process process, Path log) {
    String running = process.isAlive() ? "running" : "exited with " + process.exitValue();
    try (Stream<String> lines = Files.lines(log)) {
      List<String> about = lines.filter(line -> line.contains("pod=")).toList();
      return "kube-scheduler " + running + "; its last lines about pods (" + log.toAbsolutePath() + "):\n"
          + String.join("\n", about.subList(Math.max(0, about.size() - 30), about.size()));
    } catch (IOException e) {
      return "kube-scheduler " + running + "; its log cannot be read: " + e;
    }
  }

  /**
   * kube-scheduler retries a pod the extender refused on events of its own informers, which do not
   * include Device objects, and may have retried it before the extender saw a change it had seen
   * (a pod gone); a node change makes it retry pending pods.
   */
  @Override
  protected void retryPendingOn(String node) {
    bed()
        .client()
        .nodes()
        .withName(node)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"metadata\":{\"labels\":{\"koord4j.io/device-generation\":\"" + System.nanoTime() + "\"}}}");
  }

  /**
   * A profile of its own with the extender for filter, prioritize and bind. kube-scheduler leaves
   * the koordinator.sh GPU resources, which nodes do not advertise, to the extender.
   */
  private static String configuration(String schedulerName, int extenderPort) throws IOException {
    return String.join(
        "\n",
        "apiVersion: kubescheduler.config.k8s.io/v1",
        "kind: KubeSchedulerConfiguration",
        "clientConnection:",
        "  kubeconfig: " + LocalCluster.kubeconfig(),
        "leaderElection:",
        "  leaderElect: false",
        "profiles:",
        "- schedulerName: " + schedulerName,
        "  pluginConfig:",
        "  - name: NodeResourcesFit",
        "    args:",
        "      ignoredResourceGroups: [koordinator.sh]",
        "extenders:",
        "- urlPrefix: http://127.0.0.1:" + extenderPort,
        "  filterVerb: filter",
        "  prioritizeVerb: prioritize",
        "  bindVerb: bind",
        "  weight: 1",
        "  nodeCacheCapable: true",
        "  httpTimeout: 60s",
        "");
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
