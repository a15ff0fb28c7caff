package io.koord4j.manager.admission;

import io.koord4j.queue.core.WaitForPodsReady;
import java.time.Clock;
import java.util.function.BooleanSupplier;

/**
 * What the {@link AdmissionLoop} and its {@link StatusWriter} both take from the process around
 * them.
 *
 * @param clock the time of decisions, waits and events
 * @param leading whether this replica surely still leads, asked before each write
 * @param observer told of admissions, passes and the status writer's work
 * @param statusWrites how fast the status writer may write what waiting units say
 * @param podsReady how long admitted units' pods may take to be ready, unless their queue says
 */
public record AdmissionContext(
    Clock clock,
    BooleanSupplier leading,
    AdmissionObserver observer,
    WriteRate statusWrites,
    WaitForPodsReady podsReady) {}
