package io.koord4j.jobs;

import java.util.List;

/** Kubeflow's PyTorchJob: pod sets master and worker from {@code pytorchReplicaSpecs}. */
public final class PyTorchJobAdapter extends KubeflowJobAdapter<PyTorchJob> {

  public PyTorchJobAdapter() {
    super(PyTorchJob.class, "pytorchReplicaSpecs", List.of("Master", "Worker"));
  }
}
