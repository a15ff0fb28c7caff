package io.koord4j.api.kueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

class KueueObjectTest {

  static GenericKubernetesResource read(String resource) throws Exception {
    try (InputStream in = KueueObjectTest.class.getResourceAsStream("/kueue/" + resource)) {
      return Serialization.unmarshal(in, GenericKubernetesResource.class);
    }
  }

  @Test
  void readsAWorkloadAsKueueWritesIt() throws Exception {
    Workload workload = KueueObject.from(read("workload.yaml"), Workload.class);

    assertThat(workload.getMetadata().getNamespace()).isEqualTo("nlp");
    assertThat(workload.getSpec().getQueueName()).isEqualTo("research");
    WorkloadPodSet workers = workload.getSpec().getPodSets().get(0);
    assertThat(workers.getCount()).isEqualTo(4);
    assertThat(workers.getMinCount()).isEqualTo(2);
    assertThat(workers.getTopologyRequest()).containsEntry("preferred", "kubernetes.io/hostname");
    assertThat(workers.getTemplate().getSpec().getContainers().get(0).getResources().getRequests())
        .containsEntry("nvidia.com/gpu", new Quantity("2"));

    WorkloadStatus status = workload.getStatus();
    assertThat(status.getAdmission().getClusterQueue()).isEqualTo("research-cq");
    PodSetAssignment assignment = status.getAdmission().getPodSetAssignments().get(0);
    assertThat(assignment.getFlavors()).containsEntry("nvidia.com/gpu", "a100");
    assertThat(assignment.getResourceUsage()).containsEntry("nvidia.com/gpu", new Quantity("8"));
    assertThat(status.getConditions()).extracting("type").containsExactly(WorkloadStatus.QUOTA_RESERVED);

    AdmissionCheckState check = status.getAdmissionChecks().get(0);
    assertThat(check.getState()).isEqualTo(AdmissionCheckState.READY);
    assertThat(check.getMessage()).isEmpty();
    assertThat(check.getRetryCount()).isEqualTo(1);
    assertThat(check.getRequeueAfterSeconds()).isEqualTo(30);
    PodSetUpdate update = check.getPodSetUpdates().get(0);
    assertThat(update.getLabels()).containsEntry("koord4j.io/partition", "0-3");
    assertThat(update.getNodeSelector()).containsKey("node.koordinator.sh/gpu-model");
    assertThat(update.getTolerations().get(0).getOperator()).isEqualTo("Exists");
  }

  @Test
  void readsAnAdmissionCheck() throws Exception {
    AdmissionCheck check = KueueObject.from(read("admissioncheck.yaml"), AdmissionCheck.class);

    assertThat(check.getSpec().getControllerName()).isEqualTo(AdmissionCheck.KOORD4J_CONTROLLER);
    assertThat(check.getSpec().getParameters().getKind()).isEqualTo("GangCheckParameters");
    assertThat(check.getStatus().getConditions()).extracting("type").containsExactly(AdmissionCheck.ACTIVE);
  }

  @Test
  void addressesKueueKindsForGenericClients() {
    assertThat(Workload.CONTEXT.getGroup()).isEqualTo("kueue.x-k8s.io");
    assertThat(Workload.CONTEXT.getVersion()).isEqualTo("v1beta2");
    assertThat(Workload.CONTEXT.isNamespaceScoped()).isTrue();
    assertThat(AdmissionCheck.CONTEXT.getPlural()).isEqualTo("admissionchecks");
    assertThat(AdmissionCheck.CONTEXT.isNamespaceScoped()).isFalse();
  }
}
