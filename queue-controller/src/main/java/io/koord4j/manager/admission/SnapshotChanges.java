package io.koord4j.manager.admission;

import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Names each object whose part of the {@link AdmissionSnapshot} changed, so that controllers that
 * publish the loop's figures (quota usage, queue positions) write only when there is something
 * new.
 */
public final class SnapshotChanges {
  private final Function<AdmissionSnapshot, Map<String, ?>> parts;
  private final Consumer<String> changed;
  private Map<String, ?> last = Map.of();

  /**
   * @param parts each object's part of a snapshot by its {@code namespace/name} key, compared
   *     with equals
   * @param changed told the key of each object whose part changed
   */
  private SnapshotChanges(
      Function<AdmissionSnapshot, Map<String, ?>> parts, Consumer<String> changed) {
    this.parts = parts;
    this.changed = changed;
  }

  /** Tells {@code changed} of every part that differs from the previous snapshot's. */
  public static void follow(
      AdmissionSnapshots snapshots,
      Function<AdmissionSnapshot, Map<String, ?>> parts,
      Consumer<String> changed) {
    snapshots.subscribe(new SnapshotChanges(parts, changed)::next);
  }

  private synchronized void next(AdmissionSnapshot snapshot) {
    Map<String, ?> next = Map.copyOf(parts.apply(snapshot));
    next.forEach(
        (key, part) -> {
          if (!Objects.equals(part, last.get(key))) {
            changed.accept(key);
          }
        });
    last = next;
  }
}
