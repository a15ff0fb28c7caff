package io.koord4j.scheduler.framework;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/** A reserved pod held at Permit until every plugin that made it wait allows it. */
public final class WaitingPod {

  private final Pod pod;
  private final String nodeName;
  private final Set<String> pendingPlugins;
  private final CompletableFuture<Status> outcome = new CompletableFuture<>();

  WaitingPod(Pod pod, String nodeName, Set<String> pendingPlugins) {
    this.pod = pod;
    this.nodeName = nodeName;
    this.pendingPlugins = new HashSet<>(pendingPlugins);
  }

  public Pod pod() {
    return pod;
  }

  public String uid() {
    return pod.getMetadata().getUid();
  }

  public String nodeName() {
    return nodeName;
  }

  public synchronized void allow(String plugin) {
    pendingPlugins.remove(plugin);
    if (pendingPlugins.isEmpty()) {
      outcome.complete(Status.SUCCESS);
    }
  }

  /** Rejects the pod; the first of several rejections is the one reported. */
  public void reject(String plugin, String reason) {
    outcome.complete(Status.unschedulable(reason).by(plugin));
  }

  CompletableFuture<Status> outcome() {
    return outcome;
  }
}
