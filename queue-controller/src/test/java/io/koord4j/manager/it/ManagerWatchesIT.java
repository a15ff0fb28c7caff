package io.koord4j.manager.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.api.queue.QueueUnit;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The leading manager lists and watches each kind it reads once, however many parts read it. */
class ManagerWatchesIT extends InProcessManagerBase {

  @Test
  void sharedKindsAreWatchedOnce() throws InterruptedException {
    List<String> watched = InProcessManager.manager().watchedKinds();

    for (Class<? extends HasMetadata> kind : List.of(QueueUnit.class, Node.class, Pod.class)) {
      String name = HasMetadata.getFullResourceName(kind);
      assertThat(watched).as("watches of %s", name).containsOnlyOnce(name);
    }
  }
}
