package io.koord4j.manager;

/** What a manager replica runs only while it holds the leader Lease. */
public interface LeaderControllers extends AutoCloseable {
  /** Builds the controllers' state from the cluster and starts them. */
  void start() throws InterruptedException;

  @Override
  void close();
}
