package io.koord4j.jobs;

import java.util.List;

/** Kubeflow's TFJob: pod sets chief, master, ps, worker, evaluator from {@code tfReplicaSpecs}. */
public final class TFJobAdapter extends KubeflowJobAdapter<TFJob> {

  public TFJobAdapter() {
    super(TFJob.class, "tfReplicaSpecs", List.of("Chief", "Master", "PS", "Worker", "Evaluator"));
  }
}
