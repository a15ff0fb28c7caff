/**
 * The queueing and admission core of the queue controller: plain Java over plain values, with no
 * Kubernetes types and no I/O. The controllers translate informer events into {@link
 * io.koord4j.queue.core.QueueConfig}, {@link io.koord4j.queue.core.UnitSpec} and quota specs,
 * run {@link io.koord4j.queue.core.AdmissionCore#pass} and carry out the {@link
 * io.koord4j.queue.core.AdmissionPass} it returns; see {@link
 * io.koord4j.queue.core.AdmissionCore} for that protocol.
 *
 * <h2>Semantics</h2>
 *
 * <ul>
 *   <li>Queues are served by priority, higher first; queues of equal priority take turns unit by
 *       unit, and the turn order rotates from pass to pass. Every queue is tried in every pass:
 *       a queue whose head does not fit never stalls another queue.
 *   <li>Inside a queue, units go by priority (higher first), then arrival, then id. Under {@link
 *       io.koord4j.queue.core.QueuePolicy#PRIORITY} every unit is tried; under {@link
 *       io.koord4j.queue.core.QueuePolicy#BLOCK} the first unit of a quota that does not fit
 *       holds back that quota's later units in the queue.
 *   <li>A unit is admitted all at once: its whole request must fit, at its leaf quota and every
 *       ancestor, within both runtime quota and max, and only if its {@link
 *       io.koord4j.queue.core.PlacementCheck} says the cluster's nodes could hold all its pods.
 *   <li>Waiting (pending or backing-off) units count as their quota's demand, which moves runtime
 *       quota between siblings. When a unit's share is held by borrowers, they are preempted
 *       (reclaim); a queue with preemption enabled also lets a unit preempt strictly
 *       lower-priority units of its own queue and quota. Either way only when the victims'
 *       release makes the unit fit.
 * </ul>
 */
package io.koord4j.queue.core;
