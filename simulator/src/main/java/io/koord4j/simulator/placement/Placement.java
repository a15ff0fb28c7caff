package io.koord4j.simulator.placement;

import io.koord4j.device.GpuAllocation;

/**
 * Where a task went: its node and GPUs (null for a task without GPUs).
 *
 * @param tiedNodes how many nodes the policy ranked as high as this one, this one included: where
 *     more than one, koord-scheduler picks among them at random (as kube-scheduler does), so a run
 *     on a live cluster may place the task elsewhere
 */
public record Placement(int node, GpuAllocation gpus, int tiedNodes) {}
