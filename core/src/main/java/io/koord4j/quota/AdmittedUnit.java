package io.koord4j.quota;

import java.time.Instant;

/**
 * An admitted unit (a gang or job) as a reclaim candidate.
 *
 * @param quota the leaf quota whose used amount includes {@code request}
 */
public record AdmittedUnit(
    String id, String quota, int priority, Instant admittedAt, ResourceVector request) {}
