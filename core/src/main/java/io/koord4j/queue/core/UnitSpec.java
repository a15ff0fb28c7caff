package io.koord4j.queue.core;

import io.koord4j.quota.ResourceVector;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One queue unit (a job's gang) as the admission core sees it.
 *
 * @param id {@code namespace/name} of the QueueUnit
 * @param queue the {@link QueueConfig#name} of the queue the unit waits in
 * @param quota the leaf ElasticQuota the unit uses
 * @param arrival when the unit was first enqueued; earlier units go first among equal priority
 * @param request total of all pod sets; admitted all at once or not at all
 * @param podSetCount number of pod sets, for status only
 * @param expectedRuntime how long the unit is expected to run once admitted, or null when
 *     unknown; a backfilling queue plans with it ({@link QueueConfig#backfill})
 * @param quotaRefusal why the unit may not charge {@code quota} (its namespace is not bound to it),
 *     or null when it may: such a unit waits, saying so, and is not counted as the quota's demand
 */
public record UnitSpec(
    String id,
    String queue,
    String quota,
    int priority,
    Instant arrival,
    ResourceVector request,
    int podSetCount,
    Duration expectedRuntime,
    String quotaRefusal) {

  /** A unit whose runtime is not known. */
  public UnitSpec(
      String id, String queue, String quota, int priority, Instant arrival, ResourceVector request, int podSetCount) {
    this(id, queue, quota, priority, arrival, request, podSetCount, null);
  }

  /** A unit that may charge its quota. */
  public UnitSpec(
      String id,
      String queue,
      String quota,
      int priority,
      Instant arrival,
      ResourceVector request,
      int podSetCount,
      Duration expectedRuntime) {
    this(id, queue, quota, priority, arrival, request, podSetCount, expectedRuntime, null);
  }

  public UnitSpec {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(quota, "quota");
    Objects.requireNonNull(arrival, "arrival");
    Objects.requireNonNull(request, "request");
    if (request.hasNegative()) {
      throw new IllegalArgumentException("unit " + id + " requests a negative amount: " + request);
    }
    if (expectedRuntime != null && (expectedRuntime.isNegative() || expectedRuntime.isZero())) {
      throw new IllegalArgumentException(
          "unit " + id + ": the expected runtime must be positive, not " + expectedRuntime);
    }
  }

  public UnitSpec withQuota(String otherQuota) {
    return new UnitSpec(
        id, queue, otherQuota, priority, arrival, request, podSetCount, expectedRuntime, quotaRefusal);
  }

  /** Whether the unit may charge its quota: see {@link #quotaRefusal}. */
  public boolean mayChargeQuota() {
    return quotaRefusal == null;
  }
}
