package io.koord4j.scheduler.plugins;

import static io.koord4j.scheduler.Fixtures.nodeInfo;
import static io.koord4j.scheduler.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.NodeInfo;
import io.koord4j.scheduler.framework.Status;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class NodePortsTest {

  private final NodePorts plugin = new NodePorts();

  /** Ports are written {@code PROTOCOL/hostIP/hostPort}; an empty host IP binds every address. */
  static Stream<Arguments> cases() {
    return Stream.of(
        fits("a pod without host ports fits anywhere", List.of(), List.of("TCP//8080")),
        fits("an empty node has every port free", List.of("UDP/127.0.0.1/8080"), List.of()),
        fits("another port number is free", List.of("UDP/127.0.0.1/8080"), List.of("UDP/127.0.0.1/9090")),
        conflict("the same UDP port on the same address is taken",
            List.of("UDP/127.0.0.1/8080"), List.of("UDP/127.0.0.1/8080")),
        conflict("the same TCP port on the same address is taken",
            List.of("TCP/127.0.0.1/8080"), List.of("TCP/127.0.0.1/8080")),
        fits("the same port on another address is free",
            List.of("TCP/127.0.0.2/8080"), List.of("TCP/127.0.0.1/8080")),
        fits("the same port under another protocol is free",
            List.of("UDP/127.0.0.1/8080"), List.of("TCP/127.0.0.1/8080")),
        conflict("one taken port of several is enough",
            List.of("UDP/127.0.0.1/8000", "UDP/127.0.0.1/8080"), List.of("UDP/127.0.0.1/8080")),
        conflict("a wanted port on every address conflicts with a port held on one address",
            List.of("TCP//8001", "TCP/127.0.0.1/8002"), List.of("TCP/127.0.0.1/8001")),
        conflict("0.0.0.0 is every address too",
            List.of("TCP/10.0.10.10/8001", "TCP/0.0.0.0/8001"), List.of("TCP/127.0.0.1/8001")),
        conflict("a port held on every address conflicts with one wanted on one address",
            List.of("TCP/127.0.0.1/8001"), List.of("TCP/0.0.0.0/8001")),
        fits("every address held under another protocol leaves this one free",
            List.of("UDP/127.0.0.1/8001"), List.of("TCP/0.0.0.0/8001")),
        conflict("an unset protocol is TCP", List.of("/127.0.0.1/8001"), List.of("TCP/127.0.0.1/8001")),
        fits("a container port without a host port holds nothing on the node",
            List.of("TCP//8001"), List.of("TCP//0")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void hostPortsConflict(String scenario, List<String> wanted, List<String> held, boolean fits) {
    Pod incoming = podWithContainerPorts("incoming", wanted);
    NodeInfo node = nodeInfo("n1", "8", "8Gi").withPods(List.of(podWithContainerPorts("placed", held)));
    Status status = filter(incoming, node);
    assertThat(status.isSuccess()).as(scenario).isEqualTo(fits);
    if (!fits) {
      assertThat(status.reasons()).containsExactly(NodePorts.REASON);
    }
  }

  static Stream<Arguments> sidecarCases() {
    return Stream.of(
        Arguments.of("a sidecar's port held on the node is taken", "Always", true, false),
        Arguments.of("a sidecar wanting a held port does not fit", "Always", false, false),
        Arguments.of("an init container that exits holds no port", null, true, true),
        Arguments.of("an init container that exits wants no port", null, false, true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sidecarCases")
  void sidecarsHoldTheirPortsWhileThePodRuns(
      String scenario, String restartPolicy, boolean placedHasInit, boolean fits) {
    Pod withInit = podWithInitPort(placedHasInit ? "placed" : "incoming", restartPolicy, "TCP//8081");
    Pod withContainer = podWithContainerPorts(placedHasInit ? "incoming" : "placed", List.of("TCP//8081"));
    Pod placed = placedHasInit ? withInit : withContainer;
    Pod incoming = placedHasInit ? withContainer : withInit;
    NodeInfo node = nodeInfo("n1", "8", "8Gi").withPods(List.of(placed));
    assertThat(filter(incoming, node).isSuccess()).as(scenario).isEqualTo(fits);
  }

  private Status filter(Pod pod, NodeInfo node) {
    CycleState state = new CycleState();
    plugin.preFilter(state, pod);
    return plugin.filter(state, pod, node);
  }

  private static Arguments fits(String scenario, List<String> wanted, List<String> held) {
    return Arguments.of(scenario, wanted, held, true);
  }

  private static Arguments conflict(String scenario, List<String> wanted, List<String> held) {
    return Arguments.of(scenario, wanted, held, false);
  }

  static Pod podWithContainerPorts(String name, List<String> ports) {
    return new PodBuilder(pod(name, "1", "1Gi"))
        .editSpec()
        .editFirstContainer()
        .withPorts(ports.stream().map(NodePortsTest::port).toList())
        .endContainer()
        .endSpec()
        .build();
  }

  private static Pod podWithInitPort(String name, String restartPolicy, String port) {
    return new PodBuilder(pod(name, "1", "1Gi"))
        .editSpec()
        .addToInitContainers(
            new ContainerBuilder().withName("init").withRestartPolicy(restartPolicy).withPorts(port(port)).build())
        .endSpec()
        .build();
  }

  private static ContainerPort port(String spec) {
    List<String> parts = Arrays.asList(spec.split("/", -1));
    int hostPort = Integer.parseInt(parts.get(2));
    return new ContainerPort(hostPort, parts.get(1), hostPort, null, parts.get(0));
  }
}
