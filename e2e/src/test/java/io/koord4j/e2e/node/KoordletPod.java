package io.koord4j.e2e.node;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.testing.TestPods;
import java.net.URI;
import java.util.Map;

/**
 * koordlet as the DaemonSet of docs/koordlet.md runs it, as one pod on the real node: host PIDs,
 * network, cgroups and proc, a service account with the documented ClusterRole, every taint
 * tolerated. The API server is reached on the host's loopback address (no kube-proxy here).
 */
final class KoordletPod {
  static final String NAME = "koordlet";

  private KoordletPod() {}

  /** The service account and its cluster-wide rights, named after the namespace. */
  static void grantRights(KubernetesClient client, String namespace) {
    client.resource(new ServiceAccountBuilder().withNewMetadata().withName(NAME).withNamespace(namespace)
        .endMetadata().build()).create();
    client.resource(clusterRole(namespace)).create();
    ClusterRoleBinding binding = new ClusterRoleBindingBuilder()
        .withNewMetadata().withName(namespace).endMetadata()
        .withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("ClusterRole").withName(namespace).endRoleRef()
        .addNewSubject().withKind("ServiceAccount").withName(NAME).withNamespace(namespace).endSubject()
        .build();
    client.resource(binding).create();
  }

  static void revokeRights(KubernetesClient client, String namespace) {
    client.rbac().clusterRoleBindings().withName(namespace).delete();
    client.rbac().clusterRoles().withName(namespace).delete();
  }

  private static ClusterRole clusterRole(String name) {
    return new ClusterRoleBuilder().withNewMetadata().withName(name).endMetadata()
        .addNewRule().withApiGroups("").withResources("nodes").withVerbs("get", "list", "watch", "patch").endRule()
        .addNewRule().withApiGroups("").withResources("pods").withVerbs("list", "watch").endRule()
        .addNewRule().withApiGroups("").withResources("pods/eviction").withVerbs("create").endRule()
        .addNewRule().withApiGroups("").withResources("events").withVerbs("create").endRule()
        .addNewRule().withApiGroups("slo.koordinator.sh").withResources("nodemetrics")
        .withVerbs("get", "list", "watch", "create").endRule()
        .addNewRule().withApiGroups("slo.koordinator.sh").withResources("nodemetrics/status").withVerbs("patch").endRule()
        .addNewRule().withApiGroups("slo.koordinator.sh").withResources("nodeslos").withVerbs("get", "list", "watch").endRule()
        .addNewRule().withApiGroups("scheduling.koordinator.sh").withResources("devices")
        .withVerbs("get", "create", "patch").endRule()
        .build();
  }

  /** The koordlet pod, bound to the node as a DaemonSet's pod is, serving HTTP on {@code httpPort}. */
  static Pod pod(String namespace, String node, URI apiServer, int httpPort) {
    return new PodBuilder()
        .withNewMetadata().withName(NAME).withNamespace(namespace).withLabels(Map.of("app", NAME)).endMetadata()
        .withNewSpec()
        .withNodeName(node)
        .withServiceAccountName(NAME)
        .withHostPID(true)
        .withHostNetwork(true)
        .addNewToleration().withOperator("Exists").endToleration()
        .withTerminationGracePeriodSeconds(5L)
        .addNewContainer().withName(NAME).withImage(RealNode.image(NAME)).withImagePullPolicy("Never")
        .withArgs("--cgroup-root=/host-cgroup", "--proc-root=/host-proc", "--http-port=" + httpPort)
        .addNewEnv().withName("NODE_NAME").withNewValueFrom().withNewFieldRef().withFieldPath("spec.nodeName")
        .endFieldRef().endValueFrom().endEnv()
        .addNewEnv().withName("KUBERNETES_SERVICE_HOST").withValue(apiServer.getHost()).endEnv()
        .addNewEnv().withName("KUBERNETES_SERVICE_PORT").withValue(Integer.toString(apiServer.getPort())).endEnv()
        .addNewEnv().withName("JAVA_TOOL_OPTIONS").withValue(
            "-Xmx48m -Xss512k -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:ReservedCodeCacheSize=32m -XX:MaxMetaspaceSize=96m")
        .endEnv()
        .withNewSecurityContext().withPrivileged(true).withRunAsUser(0L).endSecurityContext()
        // Burstable, so that it is neither suppressed nor evicted with the BE pods it governs.
        .withNewResources().withRequests(TestPods.quantities(Map.of("cpu", "100m", "memory", "256Mi")))
        .withLimits(TestPods.quantities(Map.of("memory", "256Mi"))).endResources()
        .addNewVolumeMount().withName("cgroup").withMountPath("/host-cgroup").endVolumeMount()
        .addNewVolumeMount().withName("proc").withMountPath("/host-proc").withReadOnly(true).endVolumeMount()
        .endContainer()
        .addNewVolume().withName("cgroup").withNewHostPath().withPath("/sys/fs/cgroup").endHostPath().endVolume()
        .addNewVolume().withName("proc").withNewHostPath().withPath("/proc").endHostPath().endVolume()
        .endSpec()
        .build();
  }
}
