package io.koord4j.scheduler.plugins;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.scheduler.framework.BasePlugin;
import io.koord4j.scheduler.framework.ClusterEvent;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.FilterPlugin;
import io.koord4j.scheduler.framework.NodeInfo;
import io.koord4j.scheduler.framework.PreFilterPlugin;
import io.koord4j.scheduler.framework.Status;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * Keeps the pod off nodes where a pod already holds one of the host ports it asks for. Ports are
 * told apart by host IP, protocol and number; a port bound on every address (host IP empty or
 * {@code 0.0.0.0}) conflicts with the same protocol and number on any address.
 */
public final class NodePorts extends BasePlugin implements PreFilterPlugin, FilterPlugin {

  public static final String NAME = "NodePorts";
  static final String REASON = "node(s) didn't have free ports for the requested pod ports";
  private static final CycleState.Key<List<HostPort>> WANTED = new CycleState.Key<>(NAME);

  /** One host port as the node's network sees it, defaults filled in. */
  record HostPort(String ip, String protocol, int port) {
    static final String ANY_ADDRESS = "0.0.0.0";

    static HostPort of(ContainerPort port) {
      String ip = port.getHostIP() == null || port.getHostIP().isEmpty() ? ANY_ADDRESS : port.getHostIP();
      String protocol = port.getProtocol() == null || port.getProtocol().isEmpty() ? "TCP" : port.getProtocol();
      return new HostPort(ip, protocol, port.getHostPort());
    }

    boolean conflictsWith(HostPort other) {
      return port == other.port
          && protocol.equals(other.protocol)
          && (ip.equals(other.ip) || ip.equals(ANY_ADDRESS) || other.ip.equals(ANY_ADDRESS));
    }
  }

  public NodePorts() {
    super(NAME, EnumSet.of(ClusterEvent.NODE_ADDED, ClusterEvent.ASSIGNED_POD_DELETED));
  }

  @Override
  public Status preFilter(CycleState state, Pod pod) {
    state.put(WANTED, hostPortsOf(pod));
    return Status.SUCCESS;
  }

  @Override
  public Status filter(CycleState state, Pod pod, NodeInfo node) {
    List<HostPort> wanted = state.get(WANTED);
    if (wanted.isEmpty()) {
      return Status.SUCCESS;
    }
    for (Pod placed : node.pods()) {
      for (HostPort used : hostPortsOf(placed)) {
        for (HostPort want : wanted) {
          if (want.conflictsWith(used)) {
            return Status.unschedulable(REASON);
          }
        }
      }
    }
    return Status.SUCCESS;
  }

  /**
   * The host ports a pod holds while it runs: those of its containers and of its sidecars
   * (init containers that keep running, {@code restartPolicy: Always}). Other init containers
   * have exited before the pod runs.
   */
  static List<HostPort> hostPortsOf(Pod pod) {
    List<HostPort> ports = new ArrayList<>();
    pod.getSpec().getContainers().forEach(container -> addHostPorts(container, ports));
    for (Container init : pod.getSpec().getInitContainers()) {
      if ("Always".equals(init.getRestartPolicy())) {
        addHostPorts(init, ports);
      }
    }
    return ports;
  }

  private static void addHostPorts(Container container, List<HostPort> ports) {
    for (ContainerPort port : container.getPorts()) {
      if (port.getHostPort() != null && port.getHostPort() > 0) {
        ports.add(HostPort.of(port));
      }
    }
  }
}
