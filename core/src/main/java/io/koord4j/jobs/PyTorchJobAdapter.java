package io.koord4j.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;

/** Kubeflow's PyTorchJob: pod sets master and worker from {@code pytorchReplicaSpecs}. */
public final class PyTorchJobAdapter extends KubeflowJobAdapter<PyTorchJobAdapter.PyTorchJob> {

  /** A PyTorchJob as a generic resource, typed only so that it can be watched by kind. */
  @Group("kubeflow.org")
  @Version("v1")
  @Kind("PyTorchJob")
  public static final class PyTorchJob extends GenericKubernetesResource implements Namespaced {}

  public PyTorchJobAdapter() {
    super(PyTorchJob.class, "pytorchReplicaSpecs", List.of("Master", "Worker"));
  }
}
