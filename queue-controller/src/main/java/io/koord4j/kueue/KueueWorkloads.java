package io.koord4j.kueue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.koord4j.api.kueue.AdmissionCheckState;
import io.koord4j.api.kueue.KueueObject;
import io.koord4j.api.kueue.Workload;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Kueue's Workloads: our entries of {@code status.admissionChecks} are written by server-side
 * apply with our field manager, and Kueue acts on them.
 */
final class KueueWorkloads extends CheckedObjects<GenericKubernetesResource> {
  static final PatchContext APPLY = new PatchContext.Builder()
      .withPatchType(PatchType.SERVER_SIDE_APPLY)
      .withFieldManager(StatusApply.FIELD_MANAGER)
      .withForce(true)
      .build();

  KueueWorkloads() {
    super("Kueue workloads", informers -> informers.of(Workload.CONTEXT), true);
  }

  @Override
  public Optional<WaitingWorkload> waiting(GenericKubernetesResource object, Set<String> ourChecks) {
    return WaitingWorkload.of(KueueObject.from(object, Workload.class), ourChecks);
  }

  @Override
  public void write(KubernetesClient client, GenericKubernetesResource current, List<AdmissionCheckState> checks,
      Instant now) {
    String namespace = current.getMetadata().getNamespace();
    GenericKubernetesResource body = StatusApply.workloadChecks(namespace, current.getMetadata().getName(), checks);
    try {
      client.genericKubernetesResources(Workload.CONTEXT).inNamespace(namespace).resource(body)
          .subresource("status").patch(APPLY, body);
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
      // The workload is gone; its informer event ends the matter.
    }
  }
}
