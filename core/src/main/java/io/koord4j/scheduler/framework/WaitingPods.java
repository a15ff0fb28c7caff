package io.koord4j.scheduler.framework;

import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Pods held at Permit, by uid. Plugins allow or reject them, e.g. a gang allows all its members
 * at once; a plugin's timeout rejects the pod. Holding a pod costs no thread: the binding cycle
 * continues when the outcome completes.
 */
public final class WaitingPods {

  private final Map<String, WaitingPod> byUid = new ConcurrentHashMap<>();
  private final ScheduledExecutorService timer;

  public WaitingPods(ScheduledExecutorService timer) {
    this.timer = timer;
  }

  /** Every pod now waiting, in no particular order. */
  public Collection<WaitingPod> all() {
    return List.copyOf(byUid.values());
  }

  /** Rejects the pod if it is waiting, e.g. because it was deleted. */
  public void reject(String uid, String plugin, String reason) {
    WaitingPod waiting = byUid.get(uid);
    if (waiting != null) {
      waiting.reject(plugin, reason);
    }
  }

  /** Holds a pod until each plugin in {@code timeouts} allows it or its timeout passes. */
  CompletableFuture<Status> hold(Pod pod, String nodeName, Map<String, Duration> timeouts) {
    WaitingPod waiting = new WaitingPod(pod, nodeName, timeouts.keySet());
    byUid.put(waiting.uid(), waiting);
    List<ScheduledFuture<?>> timeoutTasks =
        timeouts.entrySet().stream()
            .<ScheduledFuture<?>>map(
                e ->
                    timer.schedule(
                        () ->
                            waiting.reject(
                                e.getKey(),
                                "rejected after waiting " + readable(e.getValue()) + " at Permit"),
                        e.getValue().toMillis(),
                        TimeUnit.MILLISECONDS))
            .toList();
    return waiting
        .outcome()
        .whenComplete(
            (status, error) -> {
              byUid.remove(waiting.uid(), waiting);
              timeoutTasks.forEach(task -> task.cancel(false));
            });
  }

  private static String readable(Duration duration) {
    long millis = duration.toMillis();
    return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
  }
}
