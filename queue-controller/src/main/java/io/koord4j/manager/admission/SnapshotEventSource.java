package io.koord4j.manager.admission;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.AbstractEventSource;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * Triggers a reconcile of each resource whose part of the {@link AdmissionSnapshot} changed, so
 * that controllers that publish the loop's figures (quota usage, queue positions) write only
 * when there is something new.
 *
 * @param <P> the reconciled resource
 */
public final class SnapshotEventSource<P extends HasMetadata>
    extends AbstractEventSource<Void, P> {

  private final Function<AdmissionSnapshot, Map<ResourceID, ?>> parts;
  private Map<ResourceID, ?> last = Map.of();

  /** @param parts each resource's part of a snapshot, compared with equals */
  public SnapshotEventSource(
      String name,
      AdmissionSnapshots snapshots,
      Function<AdmissionSnapshot, Map<ResourceID, ?>> parts) {
    super(Void.class, name);
    this.parts = parts;
    snapshots.subscribe(this::changed);
  }

  private synchronized void changed(AdmissionSnapshot snapshot) {
    Map<ResourceID, ?> next = new HashMap<>(parts.apply(snapshot));
    if (isRunning()) {
      next.forEach(
          (id, part) -> {
            if (!Objects.equals(part, last.get(id))) {
              getEventHandler().handleEvent(new Event(id));
            }
          });
    }
    last = next;
  }

  @Override
  public Set<Void> getSecondaryResources(P primary) {
    return Set.of();
  }
}
