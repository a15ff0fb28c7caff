package io.koord4j.yarn;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.probes.LoggedTask;
import io.koord4j.yarn.sync.NodeManagerId;
import io.koord4j.yarn.sync.NodeManagerReport;
import io.koord4j.yarn.sync.NodeView;
import io.koord4j.yarn.sync.SyncPlan;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The copilot while it leads: every period, for each YARN cluster on its own thread, it reads the
 * NodeManager reports, pushes changed totals and records what YARN uses on each node. A silent
 * ResourceManager delays only its own cluster, and each round starts from the ResourceManager's
 * current view, so a restarted or failed-over ResourceManager is resynced by the next round.
 */
public final class Copilot implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Copilot.class);
  private static final String NO_CLUSTER = "none";

  private final KubernetesClient client;
  private final Map<String, Configuration> clusters;
  private final Duration period;
  private final NodeManagerPolicy nodeManagers;
  private final CopilotMetrics metrics;
  private final NodeAnnotations annotations;
  private final List<ResourceManagerClient> resourceManagers = new ArrayList<>();
  private KubeView view;
  private ScheduledExecutorService rounds;

  /** @param nodeManagers which pods labelled as NodeManagers are taken as such */
  public Copilot(
      KubernetesClient client,
      Map<String, Configuration> clusters,
      Duration period,
      NodeManagerPolicy nodeManagers,
      MeterRegistry registry) {
    this.client = client;
    this.clusters = Map.copyOf(clusters);
    this.period = period;
    this.nodeManagers = nodeManagers;
    this.metrics = new CopilotMetrics(registry, Clock.systemUTC());
    this.annotations = new NodeAnnotations(client);
  }

  /** Fills the caches of nodes and pods, then starts the rounds. */
  public void start() throws IOException {
    view = KubeView.start(client, nodeManagers);
    for (Map.Entry<String, Configuration> cluster : clusters.entrySet()) {
      resourceManagers.add(new ResourceManagerClient(cluster.getKey(), cluster.getValue()));
      metrics.watch(cluster.getKey());
    }
    rounds = Executors.newScheduledThreadPool(resourceManagers.size() + 1);
    for (ResourceManagerClient resourceManager : resourceManagers) {
      schedule(() -> round(resourceManager));
    }
    schedule(this::releaseNodesWithoutNodeManager);
    LOG.info("syncing YARN clusters {} every {} ms", clusters.keySet(), period.toMillis());
  }

  private void schedule(Runnable round) {
    rounds.scheduleWithFixedDelay(
        LoggedTask.of(LOG, "sync round failed; retrying next period", round),
        0,
        period.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  private void round(ResourceManagerClient resourceManager) {
    String cluster = resourceManager.clusterId();
    Timer.Sample round = metrics.startRound();
    List<NodeView> nodes = view.nodes().stream().filter(inCluster(cluster)).toList();
    Map<NodeManagerId, NodeManagerReport> reports;
    try {
      reports = byNodeManager(resourceManager);
    } catch (Exception e) {
      metrics.error(cluster, "report");
      LOG.warn("YARN cluster {}: no NodeManager reports: {}", cluster, e.toString());
      return;
    }
    SyncPlan plan = SyncPlan.plan(nodes, reports, Set.of(cluster));
    boolean complete = push(resourceManager, plan);
    if (plan.lowersAny()) {
      // YARN may have started containers before its total went down: record what it holds now.
      try {
        plan = SyncPlan.plan(nodes, byNodeManager(resourceManager), Set.of(cluster));
      } catch (Exception e) {
        metrics.error(cluster, "report");
        LOG.warn("YARN cluster {}: no NodeManager reports after lowering totals: {}", cluster, e.toString());
        return;
      }
    }
    complete &= pull(cluster, plan);
    if (complete) {
      metrics.synced(cluster, round);
    }
  }

  private static Map<NodeManagerId, NodeManagerReport> byNodeManager(ResourceManagerClient resourceManager)
      throws IOException, YarnException {
    return resourceManager.reports().stream()
        .collect(Collectors.toMap(NodeManagerReport::id, Function.identity(), (a, b) -> b));
  }

  /** Nodes whose NodeManager left: YARN's record there goes to zero. */
  private void releaseNodesWithoutNodeManager() {
    List<NodeView> nodes = view.nodes().stream().filter(node -> node.nodeManager().isEmpty()).toList();
    pull(NO_CLUSTER, SyncPlan.plan(nodes, Map.of(), Set.of()));
  }

  private boolean push(ResourceManagerClient resourceManager, SyncPlan plan) {
    boolean complete = true;
    for (SyncPlan.Push push : plan.pushes()) {
      try {
        resourceManager.setTotal(push.nodeManager(), push.total());
        metrics.pushed(push.node());
        LOG.info("node {}: NodeManager {} total set to {}", push.node(), push.nodeManager().nodeId(), push.total());
      } catch (Exception e) {
        complete = false;
        metrics.error(resourceManager.clusterId(), "push");
        LOG.warn("node {}: cannot set NodeManager {} total: {}", push.node(), push.nodeManager().nodeId(), e.toString());
      }
    }
    return complete;
  }

  private boolean pull(String cluster, SyncPlan plan) {
    boolean complete = true;
    for (SyncPlan.Pull pull : plan.pulls()) {
      try {
        annotations.write(pull.node(), pull.previous(), pull.allocations());
        metrics.pulled(pull.node());
        LOG.debug("node {}: YARN uses {} and may take {} more", pull.node(), pull.used(), pull.reserved());
      } catch (RuntimeException e) {
        complete = false;
        metrics.error(cluster, "pull");
        LOG.warn("node {}: cannot record YARN's use: {}", pull.node(), e.getMessage());
      }
    }
    return complete;
  }

  private static Predicate<NodeView> inCluster(String cluster) {
    return node -> node.nodeManager().map(id -> id.clusterId().equals(cluster)).orElse(false);
  }

  @Override
  public void close() {
    if (rounds != null) {
      rounds.shutdownNow();
    }
    resourceManagers.forEach(ResourceManagerClient::close);
    if (view != null) {
      view.close();
    }
  }
}
