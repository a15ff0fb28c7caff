package io.koord4j.yarn.sync;

import java.util.Optional;

/**
 * A Kubernetes node as the copilot sees it.
 *
 * @param name the node's name
 * @param nodeManager the NodeManager whose pod runs there, if any
 * @param yarnShare what YARN may hold there: the node's batch resources less what Kubernetes batch
 *     pods on it request
 * @param allocations its {@code node.koordinator.sh/thirdPartyAllocations} annotation, or null
 * @param batchPodsWaiting a Kubernetes batch pod waits to be scheduled and may go to this node
 */
public record NodeView(
    String name,
    Optional<NodeManagerId> nodeManager,
    BatchResources yarnShare,
    String allocations,
    boolean batchPodsWaiting) {}
