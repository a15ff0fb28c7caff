package io.koord4j.koordlet.cgroup;

import java.util.Locale;

/** How the kubelet names its cgroups: plain directories, or systemd slices. */
public enum CgroupDriver {
  CGROUPFS,
  SYSTEMD;

  /** Parses the kubelet's {@code cgroupDriver} value ("cgroupfs" or "systemd"). */
  public static CgroupDriver parse(String value) {
    try {
      return valueOf(value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "cgroup driver must be cgroupfs or systemd, not \"" + value + "\"", e);
    }
  }
}
