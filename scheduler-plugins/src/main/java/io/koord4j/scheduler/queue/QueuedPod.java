package io.koord4j.scheduler.queue;

import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.util.Set;

/**
 * A pending pod and its history in the queue.
 *
 * @param arrival when the queue first saw the pod; orders pods of equal priority, so that gang
 *     members created together stay together
 * @param attempts scheduling attempts so far, which set the backoff
 * @param rejectors plugins that rejected the last attempt
 * @param cycle the queue's pop count when this attempt started
 * @param since when the pod entered its current sub-queue
 */
public record QueuedPod(
    Pod pod, Instant arrival, int attempts, Set<String> rejectors, long cycle, Instant since) {

  public String uid() {
    return pod.getMetadata().getUid();
  }

  public int priority() {
    Integer priority = pod.getSpec().getPriority();
    return priority == null ? 0 : priority;
  }

  QueuedPod with(Pod newer) {
    return new QueuedPod(newer, arrival, attempts, rejectors, cycle, since);
  }

  QueuedPod popped(long popCycle) {
    return new QueuedPod(pod, arrival, attempts + 1, rejectors, popCycle, since);
  }

  QueuedPod parked(Set<String> rejectedBy, Instant now) {
    return new QueuedPod(pod, arrival, attempts, Set.copyOf(rejectedBy), cycle, now);
  }
}
