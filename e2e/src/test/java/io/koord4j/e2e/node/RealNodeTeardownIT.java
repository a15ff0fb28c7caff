package io.koord4j.e2e.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.testing.LocalCluster;
import io.koord4j.testing.LocalNamespace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code cluster.sh node down} leaves nothing behind, even with pods running; up brings it back. */
class RealNodeTeardownIT {
  @RegisterExtension
  static final LocalNamespace NAMESPACE = new LocalNamespace("real-node-down-it");

  @BeforeAll
  static void start() {
    RealNode.upWithImages();
  }

  @Test
  void nodeDownRemovesEveryProcessMountAndBridgeThenUpMakesItReadyAgain() throws IOException {
    NAMESPACE.pods()
        .resource(RealNode.sleeperPod(NAMESPACE.name(), "left-running", Map.of("cpu", "100m", "memory", "64Mi")))
        .create();
    await().atMost(Duration.ofSeconds(90)).until(() -> "Running".equals(
        NAMESPACE.pods().withName("left-running").get().getStatus().getPhase()));
    Pod pod = NAMESPACE.pods().withName("left-running").get();
    List<String> podProcesses = Files.readAllLines(
        RealNode.cgroup("cpu", RealNode.podCgroup(pod) + "/" + RealNode.containerId(pod)).resolve("cgroup.procs"));
    assertThat(podProcesses).as("the container's processes").isNotEmpty();
    String stateDir = stateDirectory();

    LocalCluster.script("node", "down");

    assertThat(podProcesses).as("container processes still alive")
        .noneMatch(pid -> Files.exists(Path.of("/proc", pid)));
    assertThat(processesMentioning(stateDir)).as("processes of the node (containerd, shims, kubelet)").isEmpty();
    assertThat(processesNamed("runc")).as("runc processes").isEmpty();
    assertThat(Files.readAllLines(Path.of("/proc/mounts")))
        .as("mounts under %s", stateDir).noneMatch(line -> line.split(" ")[1].startsWith(stateDir));
    assertThat(Path.of("/sys/class/net/koord4j0")).as("the pods' bridge").doesNotExist();
    assertThat(RealNode.cgroup("cpu", "")).as("the kubelet's pod cgroups").doesNotExist();
    assertThat(NAMESPACE.client().nodes().withName(RealNode.NAME).get()).as("the Node object").isNull();

    RealNode.upWithImages();
    assertThat(LocalCluster.script("kubectl", "get", "nodes")).containsPattern(RealNode.NAME + "\\s+Ready");
  }

  private static String stateDirectory() {
    Matcher matcher = Pattern.compile("state directory: (\\S+)").matcher(LocalCluster.script("node", "status"));
    assertThat(matcher.find()).as("node status names its state directory").isTrue();
    return matcher.group(1);
  }

  private static List<String> processesMentioning(String text) throws IOException {
    return processes().filter(pid -> readQuietly(pid.resolve("cmdline")).replace('\0', ' ').contains(text))
        .map(pid -> pid.getFileName() + ": " + readQuietly(pid.resolve("cmdline")).replace('\0', ' '))
        .toList();
  }

  private static List<String> processesNamed(String name) throws IOException {
    return processes().filter(pid -> readQuietly(pid.resolve("comm")).trim().equals(name))
        .map(pid -> pid.getFileName().toString()).toList();
  }

  private static Stream<Path> processes() throws IOException {
    try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
      return entries.filter(p -> p.getFileName().toString().matches("\\d+")).toList().stream();
    }
  }

  private static String readQuietly(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return "";
    }
  }
}
