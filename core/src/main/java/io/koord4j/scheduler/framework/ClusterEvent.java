package io.koord4j.scheduler.framework;

/** Cluster changes that may make an unschedulable pod schedulable, and so move it back. */
public enum ClusterEvent {
  NODE_ADDED,
  /** Labels, taints, allocatable or the unschedulable flag changed; status heartbeats do not. */
  NODE_UPDATED,
  POD_ADDED,
  /** A pod that held resources (bound or assumed) went away or finished. */
  ASSIGNED_POD_DELETED,
  POD_GROUP_CHANGED,
  /** A node's measured usage (NodeMetric) was reported, changed or removed. */
  NODE_METRIC_CHANGED,
  QUOTA_CHANGED,
  /** A node's Device object (its GPUs, their health or partitions) was added, changed or removed. */
  DEVICE_CHANGED
}
