package io.koord4j.queue.core;

/**
 * How a queue treats a unit that cannot be admitted. Every policy orders units the same way:
 * higher priority first, then earlier arrival.
 */
public enum QueuePolicy {
  /** A unit that cannot be admitted does not hold back the units behind it. */
  PRIORITY,
  /**
   * The first unit of a quota that cannot be admitted holds back the later units of that quota in
   * the same queue, so large units are not starved by a stream of small ones. The block lifts as
   * soon as that unit fits: it is tried again in every pass.
   */
  BLOCK,
  /**
   * koord-queue's two-tier policy: units whose priority reaches the queue's threshold are served
   * first and behave as under {@link #BLOCK}; the others are served only while no unit above the
   * threshold waits in the queue, and behave as under {@link #PRIORITY}.
   */
  INTELLIGENT;

  /** koord-queue's default priority threshold of an Intelligent queue. */
  public static final int DEFAULT_PRIORITY_THRESHOLD = 4;

  /**
   * Reads a Queue's {@code spec.queuePolicy}. koord-queue blocks only for {@code "Block"}; its
   * legacy {@code "FIFO"}, {@code "Priority"}, an empty or an unknown value all select the same
   * non-blocking priority queue, and so they do here.
   */
  public static QueuePolicy fromSpec(String value) {
    if ("Block".equals(value)) {
      return BLOCK;
    }
    return "Intelligent".equals(value) ? INTELLIGENT : PRIORITY;
  }
}
