package io.koord4j.simulator.placement;

import io.koord4j.device.GpuAllocation;

/** Where a task went: its node and GPUs (null for a task without GPUs). */
public record Placement(int node, GpuAllocation gpus) {}
