package io.koord4j.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;

/** A kind held back by {@code spec.suspend}, as Kueue suspends RayJobs, RayClusters and Workflows. */
public interface SuspendedInSpec<T extends GenericKubernetesResource> extends JobAdapter<T> {

  @Override
  default boolean isSuspended(T job) {
    return JobFields.isSpecSuspended(job);
  }

  @Override
  default List<JsonField> suspensionFields(boolean suspended) {
    return List.of(JsonField.of(suspended, "spec", "suspend"));
  }
}
