package io.koord4j.scheduler.plugins.elasticquota;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.scheduler.framework.BasePlugin;
import io.koord4j.scheduler.framework.ClusterEvent;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.PreFilterPlugin;
import io.koord4j.scheduler.framework.ReservePlugin;
import io.koord4j.scheduler.framework.Status;
import java.util.EnumSet;

/**
 * Admits a pod only while its elastic quota, and every ancestor, has room for it within runtime
 * quota and max; charges the quota at Reserve and releases it at Unreserve.
 */
public final class ElasticQuotaPlugin extends BasePlugin implements PreFilterPlugin, ReservePlugin {

  public static final String NAME = "ElasticQuota";

  private final QuotaAccounts accounts;

  public ElasticQuotaPlugin(QuotaAccounts accounts) {
    super(NAME, EnumSet.of(ClusterEvent.QUOTA_CHANGED, ClusterEvent.ASSIGNED_POD_DELETED, ClusterEvent.NODE_ADDED));
    this.accounts = accounts;
  }

  @Override
  public Status preFilter(CycleState state, Pod pod) {
    return Status.ifReadable(
        () -> accounts.check(pod),
        result -> result.admissible() ? Status.SUCCESS : Status.unschedulable(result.message()));
  }

  @Override
  public Status reserve(CycleState state, Pod pod, String nodeName) {
    accounts.reserve(pod);
    return Status.SUCCESS;
  }

  @Override
  public void unreserve(CycleState state, Pod pod, String nodeName) {
    accounts.unreserve(pod);
  }
}
