package io.koord4j.scheduler.plugins.coscheduling;

import java.time.Duration;
import java.util.List;

/**
 * A gang as the scheduler sees it.
 *
 * @param id {@code namespace/name}
 * @param minMember pods that must be placed together before any binds
 * @param strict Strict mode: one member's failure sends the whole group back
 * @param waitingTime how long placed members wait at Permit for the rest
 * @param group ids of the gangs that are placed together, this one included
 */
public record Gang(String id, int minMember, boolean strict, Duration waitingTime, List<String> group) {}
