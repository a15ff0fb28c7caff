package io.koord4j.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.quota.ElasticQuota;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What users and the API server see of the generated CRDs. */
class CrdSchemaTest {

  static CustomResourceDefinitionVersion onlyVersion(Class<? extends CustomResource<?, ?>> type)
      throws IOException {
    String file = "META-INF/fabric8/" + CustomResource.getCRDName(type) + "-v1.yml";
    try (InputStream in = CrdSchemaTest.class.getClassLoader().getResourceAsStream(file)) {
      CustomResourceDefinition crd = Serialization.unmarshal(in, CustomResourceDefinition.class);
      assertThat(crd.getSpec().getVersions()).hasSize(1);
      return crd.getSpec().getVersions().get(0);
    }
  }

  @Test
  void kubectlGetQueueUnitsShowsPhaseQueuePriorityAndAge() throws IOException {
    assertThat(onlyVersion(QueueUnit.class).getAdditionalPrinterColumns())
        .filteredOn(column -> column.getPriority() == 0)
        .extracting(column -> column.getName(), column -> column.getJsonPath())
        .containsExactlyInAnyOrder(
            tuple("Phase", ".status.phase"),
            tuple("Queue", ".spec.queue"),
            tuple("Priority", ".spec.priority"),
            tuple("Age", ".metadata.creationTimestamp"));
  }

  @Test
  void queueUnitStatusIsASubresource() throws IOException {
    assertThat(onlyVersion(QueueUnit.class).getSubresources().getStatus()).isNotNull();
  }

  @Test
  void elasticQuotaRulesNameTheOffendingResource() throws IOException {
    var spec =
        onlyVersion(ElasticQuota.class).getSchema().getOpenAPIV3Schema().getProperties().get("spec");
    List<ValidationRule> rules =
        List.of(
            spec.getXKubernetesValidations().get(0),
            spec.getXKubernetesValidations().get(1),
            spec.getProperties().get("min").getXKubernetesValidations().get(0),
            spec.getProperties().get("max").getXKubernetesValidations().get(0));
    assertThat(rules)
        .allSatisfy(rule -> assertThat(rule.getMessageExpression()).contains(".filter(r, ", ")[0]"));
  }
}
