package io.koord4j.queue.core;

import io.koord4j.quota.ResourceVector;

/**
 * A pod that names (or defaults to) a quota and that no unit owns, as its quota is charged: its
 * request counts as the quota's demand while it waits, as used once it is placed on a node.
 *
 * @param quota the leaf quota the pod resolves to
 * @param request the pod's effective request
 * @param placed whether the pod is bound to a node
 */
public record ChargedPod(String quota, ResourceVector request, boolean placed) {}
