package io.koord4j.scheduler.kube;

import io.koord4j.api.gang.PodGroup;
import io.koord4j.scheduler.cache.SchedulerCache;
import io.koord4j.scheduler.plugins.elasticquota.QuotaAccounts;
import io.koord4j.scheduler.plugins.loadaware.NodeLoads;
import java.util.Map;

/**
 * What the scheduler's plugins know of the cluster, kept up to date by the {@link ClusterWatch}.
 *
 * @param cache nodes, Devices and pods, with what placed and assumed pods request
 * @param quotas the ElasticQuota tree and the pods charged to it
 * @param podGroups PodGroups by namespace/name, read by the gang resolver
 * @param loads the nodes' NodeMetrics and the pods placed since
 */
public record ClusterState(
    SchedulerCache cache, QuotaAccounts quotas, Map<String, PodGroup> podGroups, NodeLoads loads) {}
