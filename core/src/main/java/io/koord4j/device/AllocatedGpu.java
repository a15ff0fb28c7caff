package io.koord4j.device;

/** What a pod holds of one GPU. */
public record AllocatedGpu(int minor, String uuid, GpuShare share) {}
