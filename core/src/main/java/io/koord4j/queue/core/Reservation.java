package io.koord4j.queue.core;

import java.time.Instant;

/**
 * The start a backfilling queue holds for a unit that cannot be admitted: the earliest time the
 * admitted units' expected ends free what it needs. Recomputed in every pass, so it moves when a
 * unit outlives its estimate or ends early.
 */
public record Reservation(String unitId, Instant start) {}
