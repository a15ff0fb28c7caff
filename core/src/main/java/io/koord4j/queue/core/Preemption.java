package io.koord4j.queue.core;

/**
 * A decision to evict an admitted unit so that {@code preemptor} fits.
 *
 * @param reason a sentence for the victim's Evicted condition, naming who needs the quota
 */
public record Preemption(String unitId, String preemptor, String reason) {}
