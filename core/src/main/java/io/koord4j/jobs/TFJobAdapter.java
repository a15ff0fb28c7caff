package io.koord4j.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;

/** Kubeflow's TFJob: pod sets chief, master, ps, worker, evaluator from {@code tfReplicaSpecs}. */
public final class TFJobAdapter extends KubeflowJobAdapter<TFJobAdapter.TFJob> {

  /** A TFJob as a generic resource, typed only so that it can be watched by kind. */
  @Group("kubeflow.org")
  @Version("v1")
  @Kind("TFJob")
  public static final class TFJob extends GenericKubernetesResource implements Namespaced {}

  public TFJobAdapter() {
    super(TFJob.class, "tfReplicaSpecs", List.of("Chief", "Master", "PS", "Worker", "Evaluator"));
  }
}
