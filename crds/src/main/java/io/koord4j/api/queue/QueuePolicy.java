package io.koord4j.api.queue;

/** Values of {@code Queue.spec.queuePolicy}. */
public final class QueuePolicy {
  private QueuePolicy() {}

  /** The default: a unit that cannot be admitted does not hold back lower ones. */
  public static final String PRIORITY = "Priority";
  /** A unit that cannot be admitted holds back later units of the same quota. */
  public static final String BLOCK = "Block";
  /**
   * Units at or above the priority threshold ({@code koord-queue/priority-threshold}, default 4)
   * go first and block as under {@link #BLOCK}; the rest follow as under {@link #PRIORITY}.
   */
  public static final String INTELLIGENT = "Intelligent";
  /** Legacy value, served like {@link #PRIORITY}. */
  public static final String FIFO = "FIFO";
}
