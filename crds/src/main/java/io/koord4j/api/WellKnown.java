package io.koord4j.api;

/**
 * Label and annotation keys shared with Koordinator, koord-queue and Kueue. Every module reads
 * these names from here so that a manifest written for those projects works unchanged.
 */
public final class WellKnown {
  private WellKnown() {}

  public static final String QUOTA_PREFIX = "quota.scheduling.koordinator.sh/";
  public static final String GANG_PREFIX = "gang.scheduling.koordinator.sh/";
  public static final String SCHEDULING_PREFIX = "scheduling.koordinator.sh/";
  public static final String KOORD_QUEUE_PREFIX = "koord-queue/";
  /** Older koord-queue manifests use this prefix; it is accepted when reading. */
  public static final String LEGACY_QUEUE_PREFIX = "kube-queue/";

  // Queue membership.
  public static final String KUEUE_QUEUE_NAME = "kueue.x-k8s.io/queue-name";
  public static final String QUEUE_NAME_ANNOTATION = KOORD_QUEUE_PREFIX + "queue-name";
  public static final String QUEUE_POLICY_LABEL = KOORD_QUEUE_PREFIX + "queue-policy";
  public static final String QUEUE_ARGS = KOORD_QUEUE_PREFIX + "queue-args";
  /** On a Queue (and an ElasticQuota, copied to its Queue): the Intelligent policy's threshold. */
  public static final String PRIORITY_THRESHOLD = KOORD_QUEUE_PREFIX + "priority-threshold";
  public static final String WAIT_FOR_PODS_RUNNING = KOORD_QUEUE_PREFIX + "wait-for-pods-running";
  public static final String ENABLE_QUEUEUNIT_PREEMPTION =
      KOORD_QUEUE_PREFIX + "enable-queueunit-preemption";
  public static final String MIN_RESOURCES = KOORD_QUEUE_PREFIX + "min-resources";
  /**
   * On a Queue (and an ElasticQuota, copied to its Queue), {@code "true"}: the queue backfills
   * (koord4j's own key).
   */
  public static final String BACKFILL = "koord4j.io/backfill";
  /**
   * On a job (copied to its QueueUnit): the seconds it is expected to run once admitted, a whole
   * number above 0, which a backfilling queue plans with (koord4j's own key).
   */
  public static final String EXPECTED_RUNTIME_SECONDS = "koord4j.io/expected-runtime-seconds";
  /**
   * On a QueueUnit of one pod set (koord4j's own key): how many of its succeeded pods the job
   * replaces with new ones. Each pod that succeeds beyond these is never replaced, so its share of
   * the unit's quota is freed at once rather than when the job ends (as a batch Job's remaining
   * completions fall below its parallelism). Absent: the quota is freed when the job ends.
   */
  public static final String SUCCEEDED_PODS_REPLACED = "koord4j.io/succeeded-pods-replaced";
  /** Label {@code "true"}: the object is never queued (koord4j's own key; koord-queue has none). */
  public static final String SKIP_QUEUE_LABEL = KOORD_QUEUE_PREFIX + "skip";

  // Written on jobs and pod templates by the queue controller; the enqueue pair by the webhook
  // already, as it holds a created job (the controller writes it for a job the webhook missed).
  public static final String JOB_ENQUEUE_TIMESTAMP = KOORD_QUEUE_PREFIX + "job-enqueue-timestamp";
  public static final String JOB_DEQUEUE_TIMESTAMP = KOORD_QUEUE_PREFIX + "job-dequeue-timestamp";
  public static final String JOB_HAS_ENQUEUED = KOORD_QUEUE_PREFIX + "job-has-enqueued";
  public static final String RELATED_QUEUEUNIT = KOORD_QUEUE_PREFIX + "related-queueunit";
  public static final String RELATED_PODSET_NAME = KOORD_QUEUE_PREFIX + "related-podset-name";
  /**
   * On the pods of a resumed job: the quota its unit was admitted to, so that pods whose unit is
   * gone (deleted while no manager ran) stay charged to it until they stop (koord4j's own key).
   */
  public static final String UNIT_QUOTA = "koord4j.io/unit-quota";

  // Elastic quota tree.
  public static final String QUOTA_NAME = QUOTA_PREFIX + "name";
  public static final String QUOTA_PARENT = QUOTA_PREFIX + "parent";
  public static final String QUOTA_IS_PARENT = QUOTA_PREFIX + "is-parent";
  public static final String QUOTA_ALLOW_LENT_RESOURCE = QUOTA_PREFIX + "allow-lent-resource";
  public static final String QUOTA_TREE_ID = QUOTA_PREFIX + "tree-id";
  /** Marks the root quota of a tree an ElasticQuotaProfile keeps. */
  public static final String QUOTA_IS_ROOT = QUOTA_PREFIX + "is-root";
  /** On a tree's root quota: the ElasticQuotaProfile that keeps it. */
  public static final String QUOTA_PROFILE = QUOTA_PREFIX + "profile";
  /** On a tree's root quota: what its nodes hold, as a JSON resource list. */
  public static final String QUOTA_TOTAL_RESOURCE = QUOTA_PREFIX + "total-resource";
  public static final String QUOTA_SHARED_WEIGHT = QUOTA_PREFIX + "shared-weight";
  public static final String QUOTA_GUARANTEED = QUOTA_PREFIX + "guaranteed";
  public static final String QUOTA_RUNTIME = QUOTA_PREFIX + "runtime";
  public static final String QUOTA_REQUEST = QUOTA_PREFIX + "request";
  public static final String QUOTA_CHILD_REQUEST = QUOTA_PREFIX + "child-request";
  public static final String QUOTA_NAMESPACES = QUOTA_PREFIX + "namespaces";
  public static final String ROOT_QUOTA = "koordinator-root-quota";
  public static final String DEFAULT_QUOTA = "koordinator-default-quota";
  public static final String SYSTEM_QUOTA = "koordinator-system-quota";

  // Gangs.
  public static final String POD_GROUP_LABEL = "pod-group.scheduling.sigs.k8s.io";
  public static final String GANG_NAME = GANG_PREFIX + "name";
  public static final String GANG_MIN_AVAILABLE = GANG_PREFIX + "min-available";
  public static final String GANG_TOTAL_NUMBER = GANG_PREFIX + "total-number";
  public static final String GANG_MODE = GANG_PREFIX + "mode";
  public static final String GANG_WAITING_TIME = GANG_PREFIX + "waiting-time";
  public static final String GANG_GROUPS = GANG_PREFIX + "groups";
  public static final String GANG_MATCH_POLICY = GANG_PREFIX + "match-policy";

  // Devices and GPU placement.
  public static final String GPU_PARTITIONS = SCHEDULING_PREFIX + "gpu-partitions";
  public static final String DEVICE_ALLOCATE_HINT = SCHEDULING_PREFIX + "device-allocate-hint";
  public static final String DEVICE_JOINT_ALLOCATE = SCHEDULING_PREFIX + "device-joint-allocate";
  public static final String GPU_PARTITION_SPEC = SCHEDULING_PREFIX + "gpu-partition-spec";
  public static final String DEVICE_ALLOCATED = SCHEDULING_PREFIX + "device-allocated";
  public static final String GPU_PARTITION_POLICY = "node.koordinator.sh/gpu-partition-policy";
  public static final String GPU_MODEL = "node.koordinator.sh/gpu-model";
  public static final String GPU_VENDOR = "node.koordinator.sh/gpu-vendor";
  public static final String NVIDIA_GPU = "nvidia.com/gpu";
  public static final String KOORD_GPU = "koordinator.sh/gpu";
  public static final String GPU_CORE = "koordinator.sh/gpu-core";
  public static final String GPU_MEMORY = "koordinator.sh/gpu-memory";
  public static final String GPU_MEMORY_RATIO = "koordinator.sh/gpu-memory-ratio";
  public static final String GPU_SHARED = "koordinator.sh/gpu.shared";

  // Node agent.
  public static final String QOS_CLASS = "koordinator.sh/qosClass";
  public static final String BATCH_CPU = "kubernetes.io/batch-cpu";
  public static final String BATCH_MEMORY = "kubernetes.io/batch-memory";
  public static final String THIRD_PARTY_ALLOCATIONS = "node.koordinator.sh/thirdPartyAllocations";
  /**
   * koord4j's own convention for {@link #THIRD_PARTY_ALLOCATIONS}: an entry whose name ends so
   * records room the third party may still fill, not what it uses. The batch-resources controller
   * leaves that room in the node's allocatable; koord-scheduler places no batch pod into it.
   */
  public static final String RESERVED_ALLOCATION_SUFFIX = "-reserved";
  /** The node's batch resources before third parties' allocations are taken off them. */
  public static final String ORIGIN_EXTENDED_ALLOCATABLE = "node.koordinator.sh/originExtendedAllocatable";

  /** The value of a key written with the current prefix, read under either prefix. */
  public static String readQueueKey(java.util.Map<String, String> values, String key) {
    if (values == null) {
      return null;
    }
    String value = values.get(key);
    if (value == null && key.startsWith(KOORD_QUEUE_PREFIX)) {
      value = values.get(LEGACY_QUEUE_PREFIX + key.substring(KOORD_QUEUE_PREFIX.length()));
    }
    return value;
  }
}
