package io.koord4j.yarn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.api.model.NodeAddressBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.api.WellKnown;
import io.koord4j.testing.LocalCluster;
import io.koord4j.yarn.sync.BatchResources;
import io.koord4j.yarn.sync.NodeManagerId;
import io.koord4j.yarn.sync.YarnResources;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * One test run of YARN on the local Kubernetes cluster: Hadoop's minicluster with two NodeManagers,
 * a namespace, the copilot's ServiceAccount and RBAC from the Helm chart, and KWOK nodes,
 * NodeManager and batch pods tainted and tolerating {@code <prefix>=<run>} so that no other test's
 * pods land there. {@link #close()} removes all of it.
 */
final class YarnOnKube implements AutoCloseable {
  static final long MIB = 1L << 20;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String prefix;
  private final String run = UUID.randomUUID().toString().substring(0, 6);
  private final KubernetesClient client = LocalCluster.client();
  private final List<String> nodes = new ArrayList<>();
  private ChartAccount account;
  private KubernetesClient copilotClient;
  private MiniYarn yarn;
  private NodeManagerId nodeManagerA;
  private NodeManagerId nodeManagerB;
  private Copilot copilot;

  private YarnOnKube(String prefix) {
    this.prefix = prefix;
  }

  /** Starts YARN and prepares the namespace and the copilot's account; names start with {@code prefix}. */
  static YarnOnKube start(String prefix) throws Exception {
    YarnOnKube kube = new YarnOnKube(prefix);
    try {
      kube.client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(kube.namespace()).endMetadata().build())
          .create();
      kube.account = ChartAccount.install(kube.client, "yc-" + kube.run, kube.namespace());
      kube.client.serviceAccounts().inNamespace(kube.namespace())
          .resource(new ServiceAccountBuilder().withNewMetadata().withName(NodeManagerPolicy.DEFAULT_SERVICE_ACCOUNT)
              .endMetadata().build())
          .create();
      kube.copilotClient = kube.account.client();
      kube.yarn = MiniYarn.start(prefix, 2, Path.of("target", prefix + "-conf"));
      List<NodeManagerId> nodeManagers = new ArrayList<>(kube.yarn.reports().keySet());
      kube.nodeManagerA = nodeManagers.get(0);
      kube.nodeManagerB = nodeManagers.get(1);
      return kube;
    } catch (Exception | AssertionError e) {
      kube.close();
      throw e;
    }
  }

  String run() {
    return run;
  }

  String namespace() {
    return prefix + "-" + run;
  }

  /** The name of this run's node {@code suffix}. */
  String node(String suffix) {
    return prefix + "-" + run + "-" + suffix;
  }

  KubernetesClient client() {
    return client;
  }

  MiniYarn yarn() {
    return yarn;
  }

  ChartAccount account() {
    return account;
  }

  /** A client acting as the chart's ServiceAccount of the copilot. */
  KubernetesClient copilotClient() {
    return copilotClient;
  }

  NodeManagerId nodeManagerA() {
    return nodeManagerA;
  }

  NodeManagerId nodeManagerB() {
    return nodeManagerB;
  }

  /** Runs the NodeManagers' pods on these nodes. */
  void pairNodeManagers(String nodeA, String nodeB) {
    createPod(nodeManagerPod("nm-a", nodeA, nodeManagerA));
    createPod(nodeManagerPod("nm-b", nodeB, nodeManagerB));
  }

  /**
   * Starts the copilot as the chart's account, syncing every second and taking NodeManager pods
   * of this run's namespace that run as the default NodeManager account.
   */
  void startCopilot(MeterRegistry metrics) throws Exception {
    NodeManagerPolicy nodeManagers =
        new NodeManagerPolicy(Set.of(namespace()), Set.of(NodeManagerPolicy.DEFAULT_SERVICE_ACCOUNT));
    copilot = new Copilot(copilotClient, ClusterConfigs.load(yarn.confDir()), Duration.ofSeconds(1), nodeManagers, metrics);
    copilot.start();
  }

  /**
   * A KWOK node with this CPU and memory, labelled with its hostname and {@code labels}, and with
   * the minicluster's NodeManager host among its addresses, so that either NodeManager may run on it.
   */
  void createNode(String name, String cpu, String memory, Map<String, String> labels) {
    nodes.add(name);
    Map<String, Quantity> capacity = Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory), "pods", new Quantity("30"));
    Map<String, String> allLabels = new HashMap<>(labels);
    allLabels.putAll(Map.of("kubernetes.io/hostname", name, "type", "kwok"));
    Node node = new NodeBuilder()
        .withNewMetadata().withName(name).addToAnnotations("kwok.x-k8s.io/node", "fake").addToLabels(allLabels).endMetadata()
        .withNewSpec().addNewTaint().withKey(prefix).withValue(run).withEffect("NoSchedule").endTaint().endSpec()
        .withNewStatus().withCapacity(capacity).withAllocatable(capacity).withAddresses(nodeManagerAddresses()).endStatus()
        .build();
    client.resource(node).create();
  }

  private List<NodeAddress> nodeManagerAddresses() {
    return Stream.of(nodeManagerA, nodeManagerB).map(NodeManagerId::host).distinct()
        .map(host -> new NodeAddressBuilder().withType("Hostname").withAddress(host).build())
        .toList();
  }

  void createPod(Pod pod) {
    client.resource(pod).create();
  }

  /** The pod of the NodeManager known as {@code id}, on {@code node}. */
  Pod nodeManagerPod(String name, String node, NodeManagerId id) {
    return new PodBuilder()
        .withNewMetadata().withName(name).withNamespace(namespace())
        .addToLabels(NodeViews.COMPONENT_LABEL, NodeViews.NODE_MANAGER)
        .addToAnnotations(NodeManagerId.NODE_ID_ANNOTATION, id.nodeId())
        .endMetadata()
        .withNewSpec().withNodeName(node).withServiceAccountName(NodeManagerPolicy.DEFAULT_SERVICE_ACCOUNT)
        .addNewToleration().withKey(prefix).withOperator("Exists").endToleration()
        .addNewContainer().withName("node-manager").withImage("apache/hadoop:3").endContainer()
        .endSpec()
        .build();
  }

  /** A best-effort batch pod: bound to {@code node} when given, else left to kube-scheduler. */
  Pod batchPod(String name, String node, BatchResources batch) {
    Map<String, Quantity> requests = Map.of(
        WellKnown.BATCH_CPU, new Quantity(Long.toString(batch.milliCpu())),
        WellKnown.BATCH_MEMORY, new Quantity(Long.toString(batch.memoryBytes())));
    return new PodBuilder()
        .withNewMetadata().withName(name).withNamespace(namespace()).withLabels(Map.of(WellKnown.QOS_CLASS, "BE")).endMetadata()
        .withNewSpec().withNodeName(node)
        .addNewToleration().withKey(prefix).withOperator("Exists").endToleration()
        .addNewContainer().withName("batch").withImage("busybox")
        .withNewResources().withRequests(requests).withLimits(requests).endResources()
        .endContainer()
        .endSpec()
        .build();
  }

  void awaitTotal(NodeManagerId nodeManager, YarnResources total, Duration atMost) {
    await().atMost(atMost).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
        .untilAsserted(() -> assertThat(yarn.reports().get(nodeManager).total()).isEqualTo(total));
  }

  /**
   * Within 2 s the node's record equals {@code used}, or what YARN uses there by then if its
   * containers changed meanwhile.
   */
  void awaitRecorded(String node, YarnResources used, NodeManagerId nodeManager) {
    await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(100))
        .untilAsserted(() -> assertThat(recorded(node)).isIn(used, yarn.reports().get(nodeManager).used()));
  }

  /** What the node's third-party allocations say YARN holds there, or null without a YARN entry. */
  YarnResources recorded(String node) throws Exception {
    String annotation = client.nodes().withName(node).get().getMetadata().getAnnotations().get(WellKnown.THIRD_PARTY_ALLOCATIONS);
    if (annotation == null) {
      return null;
    }
    for (JsonNode allocation : JSON.readTree(annotation).path("allocations")) {
      if ("hadoop-yarn".equals(allocation.path("name").asText())) {
        JsonNode resources = allocation.path("resources");
        long milli = Quantity.getAmountInBytes(new Quantity(resources.path(WellKnown.BATCH_CPU).asText())).longValue();
        long bytes = Quantity.getAmountInBytes(new Quantity(resources.path(WellKnown.BATCH_MEMORY).asText())).longValue();
        return new YarnResources(milli / 1000, bytes / MIB);
      }
    }
    return null;
  }

  static YarnResources max(YarnResources a, YarnResources b) {
    return new YarnResources(Math.max(a.vcores(), b.vcores()), Math.max(a.memoryMib(), b.memoryMib()));
  }

  @Override
  public void close() {
    if (copilot != null) {
      copilot.close();
    }
    if (copilotClient != null) {
      copilotClient.close();
    }
    if (account != null) {
      account.close();
    }
    client.namespaces().withName(namespace()).delete();
    nodes.forEach(node -> client.nodes().withName(node).delete());
    client.close();
    if (yarn != null) {
      yarn.close();
    }
  }
}
