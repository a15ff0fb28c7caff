package io.koord4j.manager.jobs;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.javaoperatorsdk.operator.OperatorException;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.AbstractEventSource;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.manager.support.SharedInformers;
import io.koord4j.manager.support.StoredAhead;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The QueueUnits that jobs of one kind own, as a JOSDK event source over the process's one
 * QueueUnit informer: a unit's change reconciles its job, and {@code
 * context.getSecondaryResource(QueueUnit.class)} finds a job's unit (same name and namespace,
 * owned by the job; see {@link QueueUnits}). Every job kind shares the one watch. A unit this
 * process stored (the admission loop's admission, above all) reconciles its job at once, which
 * reads the stored unit while the informer still holds an older one: the job is resumed without
 * waiting for the write's event.
 */
final class OwnedQueueUnits<P extends HasMetadata> extends AbstractEventSource<QueueUnit, P>
    implements ResourceEventHandler<QueueUnit> {

  private final SharedInformers informers;
  private final SharedIndexInformer<QueueUnit> units;
  private final String ownerKind;
  private final StoredAhead<QueueUnit> storedAhead = new StoredAhead<>();
  private Runnable stopReadingWrites = () -> {};

  OwnedQueueUnits(SharedInformers informers, String ownerKind) {
    super(QueueUnit.class, "queueunits-of-" + ownerKind.toLowerCase());
    this.informers = informers;
    this.units = informers.of(QueueUnit.class);
    this.ownerKind = ownerKind;
  }

  @Override
  public void start() throws OperatorException {
    units.addEventHandler(this);
    informers.start(units).join();
    stopReadingWrites = informers.onWrite(QueueUnit.class, this::stored);
    super.start();
  }

  @Override
  public void stop() throws OperatorException {
    stopReadingWrites.run();
    units.removeEventHandler(this);
    super.stop();
  }

  @Override
  public Set<QueueUnit> getSecondaryResources(P job) {
    String key = job.getMetadata().getNamespace() + "/" + job.getMetadata().getName();
    return Optional.ofNullable(storedAhead.latest(units.getStore().getByKey(key)))
        .filter(unit -> owner(unit).filter(o -> o.getName().equals(job.getMetadata().getName())).isPresent())
        .map(Set::of)
        .orElse(Set.of());
  }

  @Override
  public void onAdd(QueueUnit unit) {
    storedAhead.seen(unit);
    reconcileOwner(unit);
  }

  @Override
  public void onUpdate(QueueUnit before, QueueUnit unit) {
    storedAhead.seen(unit);
    reconcileOwner(unit);
  }

  @Override
  public void onDelete(QueueUnit unit, boolean finalStateUnknown) {
    storedAhead.gone(unit);
    reconcileOwner(unit);
  }

  /** A unit of this kind's jobs that this process stored: its job is reconciled on it now. */
  private void stored(QueueUnit unit) {
    if (owner(unit).isPresent()) {
      storedAhead.stored(unit, units.getStore().get(unit));
      reconcileOwner(unit);
    }
  }

  private void reconcileOwner(QueueUnit unit) {
    if (isRunning()) {
      owner(unit)
          .map(o -> new ResourceID(o.getName(), unit.getMetadata().getNamespace()))
          .ifPresent(job -> getEventHandler().handleEvent(new Event(job)));
    }
  }

  private Optional<OwnerReference> owner(QueueUnit unit) {
    List<OwnerReference> owners = unit.getMetadata().getOwnerReferences();
    return owners == null
        ? Optional.empty()
        : owners.stream().filter(o -> ownerKind.equals(o.getKind())).findFirst();
  }
}
