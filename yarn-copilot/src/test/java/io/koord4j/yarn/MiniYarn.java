package io.koord4j.yarn;

import io.koord4j.yarn.sync.NodeManagerId;
import io.koord4j.yarn.sync.NodeManagerReport;
import io.koord4j.yarn.sync.YarnResources;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.hadoop.yarn.applications.distributedshell.ApplicationMaster;
import org.apache.hadoop.yarn.applications.distributedshell.Client;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.util.resource.DominantResourceCalculator;

/**
 * A real YARN in the test JVM: one ResourceManager and NodeManagers of Hadoop's minicluster, and
 * DistributedShell applications whose containers sleep.
 */
final class MiniYarn implements AutoCloseable {
  static final YarnResources NODE_MANAGER_START = new YarnResources(8, 8192);

  private final MiniYARNCluster cluster;
  private final Path confDir;
  private final ResourceManagerClient client;

  private MiniYarn(MiniYARNCluster cluster, Path confDir) throws IOException {
    this.cluster = cluster;
    this.confDir = confDir;
    this.client = new ResourceManagerClient(NodeManagerId.DEFAULT_CLUSTER, ClusterConfigs.load(confDir).get(NodeManagerId.DEFAULT_CLUSTER));
  }

  /** Starts the cluster and writes its client configuration as {@code <confDir>/yarn-site.xml}. */
  static MiniYarn start(String name, int nodeManagers, Path confDir) throws Exception {
    YarnConfiguration conf = new YarnConfiguration();
    conf.setInt(YarnConfiguration.NM_VCORES, (int) NODE_MANAGER_START.vcores());
    conf.setInt(YarnConfiguration.NM_PMEM_MB, (int) NODE_MANAGER_START.memoryMib());
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
    conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
    conf.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
    // Count vcores as well as memory, as a shared node needs.
    conf.set("yarn.scheduler.capacity.resource-calculator", DominantResourceCalculator.class.getName());
    conf.set("yarn.scheduler.capacity.root.queues", "default");
    conf.set("yarn.scheduler.capacity.root.default.capacity", "100");
    conf.set("yarn.scheduler.capacity.root.default.maximum-am-resource-percent", "1.0");
    // NodeManagers reach the ResourceManager over RPC at addresses that a restart keeps, so that
    // they find the new one; the minicluster allows RPC only with fixed ports.
    conf.setBoolean(YarnConfiguration.YARN_MINICLUSTER_USE_RPC, true);
    conf.setBoolean(YarnConfiguration.YARN_MINICLUSTER_FIXED_PORTS, true);
    for (String address : List.of(
        YarnConfiguration.RM_ADDRESS,
        YarnConfiguration.RM_SCHEDULER_ADDRESS,
        YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS,
        YarnConfiguration.RM_ADMIN_ADDRESS)) {
      conf.set(address, "localhost:" + freePort());
    }
    for (String address : List.of(
        YarnConfiguration.RM_WEBAPP_ADDRESS,
        YarnConfiguration.NM_ADDRESS,
        YarnConfiguration.NM_LOCALIZER_ADDRESS,
        YarnConfiguration.NM_WEBAPP_ADDRESS)) {
      conf.set(address, "localhost:0");
    }
    conf.setLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS, 500);
    MiniYARNCluster cluster = new MiniYARNCluster(name, nodeManagers, 1, 1);
    cluster.init(conf);
    cluster.start();
    if (!cluster.waitForNodeManagersToConnect(60_000)) {
      cluster.stop();
      throw new IllegalStateException("the minicluster's NodeManagers did not register in 60 s");
    }
    Files.createDirectories(confDir);
    try (OutputStream out = Files.newOutputStream(confDir.resolve(ClusterConfigs.YARN_SITE))) {
      cluster.getConfig().writeXml(out);
    }
    return new MiniYarn(cluster, confDir);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  Path confDir() {
    return confDir;
  }

  /** What the ResourceManager reports now, by NodeManager. */
  Map<NodeManagerId, NodeManagerReport> reports() throws Exception {
    return client.reports().stream().collect(Collectors.toMap(NodeManagerReport::id, Function.identity()));
  }

  /**
   * Runs DistributedShell: {@code containers} containers of 1 vcore and {@code memoryMib} each,
   * sleeping {@code seconds}, besides its ApplicationMaster (1 vcore, 256 MiB). Completes with
   * whether the application succeeded.
   */
  CompletableFuture<Boolean> runSleepers(int containers, int memoryMib, int seconds) throws Exception {
    YarnConfiguration conf = new YarnConfiguration(cluster.getConfig());
    // The ApplicationMaster reads the cluster's addresses from a yarn-site.xml on its classpath.
    conf.set(YarnConfiguration.YARN_APPLICATION_CLASSPATH, confDir.toAbsolutePath().toString());
    Client shell = new Client(conf);
    String jar = ApplicationMaster.class.getProtectionDomain().getCodeSource().getLocation().getPath();
    shell.init(
        new String[] {
          "--jar", jar,
          "--num_containers", Integer.toString(containers),
          "--container_vcores", "1",
          "--container_memory", Integer.toString(memoryMib),
          "--master_vcores", "1",
          "--master_memory", "256",
          "--shell_command", "sleep " + seconds
        });
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return shell.run();
          } catch (Exception e) {
            throw new IllegalStateException("DistributedShell failed", e);
          }
        });
  }

  /** Stops the ResourceManager and starts a new one on the same addresses. */
  void restartResourceManager() throws InterruptedException {
    cluster.restartResourceManager(cluster.getActiveRMIndex());
  }

  @Override
  public void close() {
    client.close();
    cluster.stop();
  }
}
