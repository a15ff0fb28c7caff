package io.koord4j.e2e.node;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.testing.LocalCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The real node of the local cluster ({@code cluster.sh node up}): a kubelet with containerd and
 * runc, tainted so that only pods that tolerate it land there, and the images built for it.
 */
final class RealNode {
  static final String NAME = "real-node-0";
  static final String LABEL = "koord4j.io/real-node";
  private static final Path CGROUP_ROOT = Path.of("/sys/fs/cgroup");

  private RealNode() {}

  /** Starts the node (building it the first time) and loads koord4j's images into it. */
  static void upWithImages() {
    LocalCluster.script("node", "up");
    LocalCluster.script("images", "load");
  }

  /** The manager image of this build, as {@code cluster.sh images load} tagged it. */
  static String managerImage() {
    return image("manager");
  }

  /** A component's image of this build ({@code manager}, {@code koordlet}, ...). */
  static String image(String component) {
    return "docker.io/koord4j/" + component + ":" + System.getProperty("koord4j.version", "0.1.0-SNAPSHOT");
  }

  /**
   * A pod of the manager image that prints a line and sleeps, placed on the real node by
   * kube-scheduler through its label and taint.
   */
  static Pod sleeperPod(String namespace, String name, Map<String, String> resources) {
    return shellPod(namespace, name, "echo koord4j on the real node; exec sleep 3600", resources);
  }

  /**
   * A pod of the manager image that runs a shell script, placed on the real node by kube-scheduler
   * through its label and taint; resources are both requests and limits.
   */
  static Pod shellPod(String namespace, String name, String script, Map<String, String> resources) {
    PodBuilder pod = new PodBuilder()
        .withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
        .withNewSpec()
        .withNodeSelector(Map.of(LABEL, "true"))
        .addNewToleration().withKey(LABEL).withOperator("Equal").withValue("true")
        .withEffect("NoSchedule").endToleration()
        .withTerminationGracePeriodSeconds(1L)
        .addNewContainer().withName("main").withImage(managerImage()).withImagePullPolicy("Never")
        .withCommand("sh", "-c", script)
        .withNewResources().addToRequests(quantities(resources)).addToLimits(quantities(resources))
        .endResources()
        .endContainer()
        .endSpec();
    return pod.build();
  }

  private static Map<String, Quantity> quantities(Map<String, String> resources) {
    Map<String, Quantity> result = new java.util.HashMap<>();
    resources.forEach((name, amount) -> result.put(name, new Quantity(amount)));
    return result;
  }

  /** Whether the host runs the unified cgroup v2 hierarchy (else v1, one hierarchy per controller). */
  static boolean cgroupV2() {
    return Files.exists(CGROUP_ROOT.resolve("cgroup.controllers"));
  }

  /**
   * The directory of a kubelet cgroup (a path below {@code kubepods}, cgroupfs driver) in the
   * hierarchy that holds the given controller.
   */
  static Path cgroup(String controller, String kubeletPath) {
    Path hierarchy = cgroupV2() ? CGROUP_ROOT : CGROUP_ROOT.resolve(controller);
    return hierarchy.resolve("kubepods").resolve(kubeletPath);
  }

  /** The pod-level cgroup path of a pod by its QoS class, as the kubelet names it. */
  static String podCgroup(Pod pod) {
    String qos = pod.getStatus().getQosClass();
    String dir = "pod" + pod.getMetadata().getUid();
    return switch (qos) {
      case "Guaranteed" -> dir;
      case "Burstable" -> "burstable/" + dir;
      default -> "besteffort/" + dir;
    };
  }

  /** The container's ID without its runtime prefix ({@code containerd://}). */
  static String containerId(Pod pod) {
    String id = pod.getStatus().getContainerStatuses().get(0).getContainerID();
    return id.substring(id.indexOf("://") + 3);
  }

  /** The first line of a cgroup file. */
  static String read(Path file) {
    try {
      return Files.readAllLines(file).get(0).trim();
    } catch (java.io.IOException e) {
      throw new IllegalStateException("cannot read " + file, e);
    }
  }
}
