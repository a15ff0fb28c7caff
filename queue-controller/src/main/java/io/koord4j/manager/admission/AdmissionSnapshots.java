package io.koord4j.manager.admission;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/** The latest {@link AdmissionSnapshot} and who wants to hear of the next one. */
public final class AdmissionSnapshots {
  private volatile AdmissionSnapshot latest = AdmissionSnapshot.EMPTY;
  private final List<Consumer<AdmissionSnapshot>> listeners = new CopyOnWriteArrayList<>();

  public AdmissionSnapshot latest() {
    return latest;
  }

  public void subscribe(Consumer<AdmissionSnapshot> listener) {
    listeners.add(listener);
    listener.accept(latest);
  }

  void publish(AdmissionSnapshot snapshot) {
    latest = snapshot;
    listeners.forEach(listener -> listener.accept(snapshot));
  }
}
