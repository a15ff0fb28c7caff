package io.koord4j.device;

/**
 * Where one pod of a gang goes.
 *
 * @param index the pod's number within its pod set, from 0
 * @param gpus null when the pod asks for no GPU
 */
public record PodPlacement(String podSet, int index, String nodeName, GpuAllocation gpus) {}
