package io.koord4j.device;

import java.util.List;

/**
 * Whether a gang fits the cluster.
 *
 * @param fitsNow every pod can be placed on what is free right now
 * @param fitsWhenEmpty every pod could be placed on these nodes with nothing else running: when
 *     false, waiting will not help (Kueue: Rejected rather than Retry)
 * @param placements one per pod when it fits now, else empty
 * @param reason why it does not fit now, null when it does
 */
public record GangFeasibility(
    boolean fitsNow, boolean fitsWhenEmpty, List<PodPlacement> placements, String reason) {}
