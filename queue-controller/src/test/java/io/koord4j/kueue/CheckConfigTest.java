package io.koord4j.kueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.check.GangFeasibilityParameters;
import io.koord4j.api.check.GangFeasibilityParametersSpec;
import io.koord4j.api.kueue.AdmissionCheck;
import io.koord4j.api.kueue.AdmissionCheckSpec;
import io.koord4j.api.kueue.KueueObject;
import io.koord4j.testing.LocalCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CheckConfigTest {
  private static final CheckSettings DEFAULTS = new CheckSettings(Duration.ofMinutes(5), 60);

  @Test
  void aCheckWithoutParametersUsesTheControllersSettingsAndAnyNodes() {
    assertThat(CheckConfig.of(check(null), Map.of(), DEFAULTS)).isEqualTo(CheckConfig.anywhere(DEFAULTS));
  }

  @Test
  void parametersSetTheTopologyAndTheTimes() {
    GangFeasibilityParameters rack = parameters("racks", "Domain", "topology.kubernetes.io/rack", 30, 10);

    CheckConfig config = CheckConfig.of(check(reference("racks")), Map.of("racks", rack), DEFAULTS);

    assertThat(config).isEqualTo(new CheckConfig("topology.kubernetes.io/rack",
        new CheckSettings(Duration.ofSeconds(30), 10)));
  }

  @Test
  void nodeScopeKeepsTheGangOnOneNodeAndUnsetTimesKeepTheDefaults() {
    GangFeasibilityParameters node = parameters("node", "Node", null, null, null);

    assertThat(CheckConfig.of(check(reference("node")), Map.of("node", node), DEFAULTS))
        .isEqualTo(new CheckConfig("kubernetes.io/hostname", DEFAULTS));
  }

  @Test
  void missingOrInvalidParametersNameTheField() {
    assertProblem(check(reference("gone")), Map.of(),
        "spec.parameters.name: GangFeasibilityParameters \"gone\" not found");
    AdmissionCheckSpec.Parameters wrongKind = reference("p");
    wrongKind.setKind("ProvisioningRequestConfig");
    assertProblem(check(wrongKind), Map.of(),
        "spec.parameters.kind: must be GangFeasibilityParameters, not \"ProvisioningRequestConfig\"");
    assertProblem(check(reference("p")), Map.of("p", parameters("p", "Domain", null, null, null)),
        "GangFeasibilityParameters \"p\": spec.topologyKey: required when spec.topologyScope is Domain");
    assertProblem(check(reference("p")), Map.of("p", parameters("p", "Rack", null, null, null)),
        "GangFeasibilityParameters \"p\": spec.topologyScope: must be None, Node or Domain, not \"Rack\"");
    assertProblem(check(reference("p")), Map.of("p", parameters("p", null, null, -1, null)),
        "GangFeasibilityParameters \"p\": spec.waitBeforeRetrySeconds: must not be negative, got -1");
    assertProblem(check(reference("p")), Map.of("p", parameters("p", "Node", "zone", null, null)),
        "GangFeasibilityParameters \"p\": spec.topologyKey: only allowed when spec.topologyScope is Domain");
  }

  @Test
  void theSampleCheckAndItsParametersAreUsable() throws IOException {
    List<GenericKubernetesResource> documents = Serialization.unmarshal(
        Files.readString(LocalCluster.repoRoot().resolve("samples/kueue/00-admission-check.yaml")));
    AdmissionCheck check = KueueObject.from(documents.get(0), AdmissionCheck.class);
    GangFeasibilityParameters parameters =
        Serialization.jsonMapper().convertValue(documents.get(1), GangFeasibilityParameters.class);

    CheckConfig config = CheckConfig.of(
        check, Map.of(parameters.getMetadata().getName(), parameters), DEFAULTS);

    assertThat(config).isEqualTo(new CheckConfig("node.koordinator.sh/gpu-model",
        new CheckSettings(Duration.ofMinutes(10), 120)));
  }

  private static void assertProblem(
      AdmissionCheck check, Map<String, GangFeasibilityParameters> parameters, String problem) {
    assertThatThrownBy(() -> CheckConfig.of(check, parameters, DEFAULTS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(problem);
  }

  private static AdmissionCheck check(AdmissionCheckSpec.Parameters reference) {
    AdmissionCheck check = new AdmissionCheck();
    check.setMetadata(new ObjectMetaBuilder().withName("gang").build());
    check.setSpec(new AdmissionCheckSpec());
    check.getSpec().setControllerName(AdmissionCheck.KOORD4J_CONTROLLER);
    check.getSpec().setParameters(reference);
    return check;
  }

  private static AdmissionCheckSpec.Parameters reference(String name) {
    AdmissionCheckSpec.Parameters reference = new AdmissionCheckSpec.Parameters();
    reference.setApiGroup("koord4j.io");
    reference.setKind("GangFeasibilityParameters");
    reference.setName(name);
    return reference;
  }

  private static GangFeasibilityParameters parameters(
      String name, String scope, String key, Integer waitSeconds, Integer requeueSeconds) {
    GangFeasibilityParameters parameters = new GangFeasibilityParameters();
    parameters.getMetadata().setName(name);
    GangFeasibilityParametersSpec spec = new GangFeasibilityParametersSpec();
    spec.setTopologyScope(scope);
    spec.setTopologyKey(key);
    spec.setWaitBeforeRetrySeconds(waitSeconds);
    spec.setRequeueAfterSeconds(requeueSeconds);
    parameters.setSpec(spec);
    return parameters;
  }
}
