package io.koord4j.manager;

import io.koord4j.manager.support.SharedInformers;
import java.util.Optional;

/** What a manager replica runs only while it holds the leader Lease. */
public interface LeaderControllers extends AutoCloseable {
  /** Builds the controllers' state from the cluster and starts them. */
  void start() throws InterruptedException;

  /** The informers the controllers fill while they run, for other readers of the cluster. */
  default Optional<SharedInformers> informers() {
    return Optional.empty();
  }

  @Override
  void close();
}
