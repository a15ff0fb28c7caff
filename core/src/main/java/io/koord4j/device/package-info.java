/**
 * GPU placement, shared by the scheduler's DeviceShare plugin (filter, score, reserve per node)
 * and the queue controller's gang feasibility check. Pure Java over plain values: no client
 * calls, no I/O.
 *
 * <ul>
 *   <li>{@link io.koord4j.device.NodeGpuInventory} is what a node has: its GPUs, their topology
 *       and its NVLink {@link io.koord4j.device.GpuPartitionTable}.
 *   <li>{@link io.koord4j.device.NodeGpuUsage} is what pods already hold, rebuilt from their
 *       {@code scheduling.koordinator.sh/device-allocated} annotations by {@link
 *       io.koord4j.device.DeviceAllocatedCodec}.
 *   <li>{@link io.koord4j.device.GpuRequest} is what one pod asks for, parsed from its resource
 *       requests and placement annotations.
 *   <li>{@link io.koord4j.device.GpuAllocator} picks the GPUs of one pod on one node and scores
 *       nodes; {@link io.koord4j.device.GangPlacement} places a whole gang on a cluster.
 * </ul>
 *
 * <h2>Units</h2>
 *
 * GPU core and memory ratio are whole percent of one GPU (100 = the whole GPU); GPU memory is in
 * bytes. A GPU is free when nothing of it is used; whole-GPU requests only take free GPUs.
 */
package io.koord4j.device;
