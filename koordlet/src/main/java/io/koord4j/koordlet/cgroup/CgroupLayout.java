package io.koord4j.koordlet.cgroup;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the kubelet puts pod cgroups on this node.
 *
 * @param root the cgroup mount, {@code /sys/fs/cgroup} on the host; a pod mounts it elsewhere
 * @param kubepods the kubelet's pods cgroup under the root: {@code kubepods} (cgroupfs) or {@code
 *     kubepods.slice} (systemd), deeper when the kubelet runs with a {@code --cgroup-root}
 */
public record CgroupLayout(Path root, CgroupVersion version, CgroupDriver driver, String kubepods) {
  /** Refuses a kubepods cgroup that is absolute or climbs out of the root. */
  public CgroupLayout {
    CgroupNames.kubepods(kubepods);
  }

  /** The unified hierarchy carries {@code cgroup.controllers} at its root; v1 does not. */
  public static CgroupLayout detect(Path root, CgroupDriver driver, String kubepods) {
    CgroupVersion version =
        Files.exists(root.resolve("cgroup.controllers")) ? CgroupVersion.V2 : CgroupVersion.V1;
    return new CgroupLayout(root, version, driver, kubepods);
  }

  /** The kubelet's default pods cgroup for a driver. */
  public static String defaultKubepods(CgroupDriver driver) {
    return driver == CgroupDriver.SYSTEMD ? "kubepods.slice" : "kubepods";
  }

  /** The directory of a QoS class, relative to a hierarchy root; Guaranteed pods sit directly under kubepods. */
  public String qosDir(KubeQos qos) {
    return switch (qos) {
      case GUARANTEED -> kubepods;
      case BURSTABLE -> kubepods + "/" + child("burstable");
      case BEST_EFFORT -> kubepods + "/" + child("besteffort");
    };
  }

  /**
   * The directory of a pod, relative to a hierarchy root.
   *
   * @throws IllegalArgumentException naming {@code metadata.uid} when the UID is not a UUID
   */
  public String podDir(KubeQos qos, String podUid) {
    String uid = CgroupNames.podUid(podUid);
    if (driver == CgroupDriver.CGROUPFS) {
      return qosDir(qos) + "/pod" + uid;
    }
    String qosPrefix = qos == KubeQos.GUARANTEED ? slicePrefix() : slicePrefix() + "-" + qosName(qos);
    return qosDir(qos) + "/" + qosPrefix + "-pod" + uid.replace('-', '_') + ".slice";
  }

  /**
   * The directory of a container, relative to a hierarchy root.
   *
   * @param containerId as in {@code status.containerStatuses[].containerID}: {@code
   *     containerd://<hex>}, {@code cri-o://<hex>} or {@code docker://<hex>}
   * @throws IllegalArgumentException naming {@code containerID} when it has another form
   */
  public String containerDir(String podDir, String containerId) {
    CgroupNames.ContainerId parsed = CgroupNames.containerId(containerId);
    if (driver == CgroupDriver.CGROUPFS) {
      return podDir + "/" + parsed.id();
    }
    String scopePrefix =
        switch (parsed.runtime()) {
          case "docker" -> "docker-";
          case "cri-o" -> "crio-";
          default -> "cri-containerd-";
        };
    return podDir + "/" + scopePrefix + parsed.id() + ".scope";
  }

  /** The absolute directory of a relative cgroup for one controller (v1) or the unified tree (v2). */
  public Path dir(String controller, String relative) {
    return CgroupNames.under(version == CgroupVersion.V2 ? root : v1Hierarchy(controller), relative);
  }

  /** cpu and cpuacct are often co-mounted as {@code cpu,cpuacct} with single-name links beside it. */
  private Path v1Hierarchy(String controller) {
    Path own = root.resolve(controller);
    if (Files.isDirectory(own)) {
      return own;
    }
    Path joint = root.resolve("cpu,cpuacct");
    return (controller.equals("cpu") || controller.equals("cpuacct")) && Files.isDirectory(joint) ? joint : own;
  }

  private String child(String qosName) {
    return driver == CgroupDriver.CGROUPFS ? qosName : slicePrefix() + "-" + qosName + ".slice";
  }

  private static String qosName(KubeQos qos) {
    return qos == KubeQos.BURSTABLE ? "burstable" : "besteffort";
  }

  /** "kubepods" for "kubepods.slice" or "a.slice/kubepods.slice". */
  private String slicePrefix() {
    String last = kubepods.substring(kubepods.lastIndexOf('/') + 1);
    return last.endsWith(".slice") ? last.substring(0, last.length() - ".slice".length()) : last;
  }
}
