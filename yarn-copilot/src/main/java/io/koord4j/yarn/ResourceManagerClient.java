package io.koord4j.yarn;

import io.koord4j.yarn.sync.NodeManagerId;
import io.koord4j.yarn.sync.NodeManagerReport;
import io.koord4j.yarn.sync.YarnResources;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceOption;
import org.apache.hadoop.yarn.client.ClientRMProxy;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.server.api.ResourceManagerAdministrationProtocol;
import org.apache.hadoop.yarn.server.api.protocolrecords.UpdateNodeResourceRequest;

/**
 * One YARN cluster's ResourceManager through Hadoop's own clients: {@link YarnClient} for node
 * reports and the admin protocol for NodeManager totals. Both follow the configured HA
 * ResourceManagers and reconnect after a restart by themselves.
 */
final class ResourceManagerClient implements AutoCloseable {
  /** Never preempt YARN containers to shrink a NodeManager: running ones finish, new ones fit. */
  private static final int NO_OVERCOMMIT_TIMEOUT = -1;

  private final String clusterId;
  private final YarnClient yarn;
  private final ResourceManagerAdministrationProtocol admin;

  ResourceManagerClient(String clusterId, Configuration conf) throws IOException {
    this.clusterId = clusterId;
    this.yarn = YarnClient.createYarnClient();
    yarn.init(conf);
    yarn.start();
    this.admin = ClientRMProxy.createRMProxy(conf, ResourceManagerAdministrationProtocol.class);
  }

  String clusterId() {
    return clusterId;
  }

  /** Every NodeManager the ResourceManager knows, in any state. */
  List<NodeManagerReport> reports() throws IOException, YarnException {
    return yarn.getNodeReports().stream().map(this::toReport).toList();
  }

  /** Sets a NodeManager's total capability. */
  void setTotal(NodeManagerId nodeManager, YarnResources total) throws IOException, YarnException {
    Resource resource = Resource.newInstance(total.memoryMib(), Math.toIntExact(total.vcores()));
    admin.updateNodeResource(
        UpdateNodeResourceRequest.newInstance(
            Map.of(
                NodeId.newInstance(nodeManager.host(), nodeManager.port()),
                ResourceOption.newInstance(resource, NO_OVERCOMMIT_TIMEOUT))));
  }

  private NodeManagerReport toReport(NodeReport report) {
    return new NodeManagerReport(
        new NodeManagerId(clusterId, report.getNodeId().getHost(), report.getNodeId().getPort()),
        report.getNodeState() == NodeState.RUNNING,
        resources(report.getCapability()),
        resources(report.getUsed()));
  }

  private static YarnResources resources(Resource resource) {
    return resource == null
        ? YarnResources.ZERO
        : new YarnResources(resource.getVirtualCores(), resource.getMemorySize());
  }

  @Override
  public void close() {
    yarn.stop();
    RPC.stopProxy(admin);
  }
}
