package io.koord4j.koordlet.cgroup;

/** v1 mounts one hierarchy per controller; v2 mounts one unified hierarchy. */
public enum CgroupVersion {
  V1,
  V2
}
