package io.koord4j.api.queue;

/** Values of {@code Queue.spec.queuePolicy}. */
public final class QueuePolicy {
  private QueuePolicy() {}

  /** The default: a unit that cannot be admitted does not hold back lower ones. */
  public static final String PRIORITY = "Priority";
  /** A unit that cannot be admitted holds back later units of the same quota. */
  public static final String BLOCK = "Block";
  /** Legacy value, served like {@link #PRIORITY}. */
  public static final String FIFO = "FIFO";
}
