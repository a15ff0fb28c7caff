package io.koord4j.webhook.admission;

import java.util.Set;

/**
 * The queues a job in a namespace may name. Backed by an informer cache in the manager, by a
 * map in tests; it must answer quickly because it is called on every admission.
 */
@FunctionalInterface
public interface QueueLookup {
  Set<String> queuesFor(String namespace);
}
