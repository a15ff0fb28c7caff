package io.koord4j.jobs;

import java.util.List;

/** The MPI Operator's v2beta1 MPIJob: pod sets launcher and worker from {@code mpiReplicaSpecs}. */
public final class MPIJobAdapter extends KubeflowJobAdapter<MPIJob> {

  public MPIJobAdapter() {
    super(MPIJob.class, "mpiReplicaSpecs", List.of("Launcher", "Worker"));
  }
}
