package io.koord4j.manager.queue;

import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueStatus;
import io.koord4j.manager.admission.AdmissionSnapshot.QueueFigures;
import io.koord4j.manager.admission.AdmissionSnapshots;
import io.koord4j.manager.admission.QueueKeys;
import io.koord4j.manager.admission.SnapshotEventSource;
import io.koord4j.manager.support.Json;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Publishes each Queue's waiting units and their positions in {@code status.queueItemDetails}. */
public class QueueReconciler implements Reconciler<Queue> {

  private final AdmissionSnapshots snapshots;

  public QueueReconciler(AdmissionSnapshots snapshots) {
    this.snapshots = snapshots;
  }

  @Override
  public List<EventSource<?, Queue>> prepareEventSources(EventSourceContext<Queue> context) {
    return List.of(
        new SnapshotEventSource<>(
            "queue-items",
            snapshots,
            snapshot ->
                snapshot.queues().entrySet().stream()
                    .collect(
                        Collectors.toMap(
                            e -> new ResourceID(QueueKeys.name(e.getKey()), QueueKeys.namespace(e.getKey())),
                            e -> Json.tree(e.getValue().items())))));
  }

  @Override
  public UpdateControl<Queue> reconcile(Queue queue, Context<Queue> context) {
    QueueFigures figures = snapshots.latest().queues().get(QueueKeys.of(queue));
    if (figures == null
        || (queue.getStatus() != null
            && Json.same(queue.getStatus().getQueueItemDetails(), figures.items()))) {
      return UpdateControl.noUpdate();
    }
    context
        .getClient()
        .resources(Queue.class)
        .inNamespace(queue.getMetadata().getNamespace())
        .withName(queue.getMetadata().getName())
        .editStatus(
            q -> {
              QueueStatus status = new QueueStatus();
              status.setQueueItemDetails(figures.items());
              q.setStatus(status);
              return q;
            });
    return UpdateControl.noUpdate();
  }
}
