package io.koord4j.api.check;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * Settings of one gang-feasibility AdmissionCheck, named by the check's {@code spec.parameters}
 * ({@code apiGroup: koord4j.io, kind: GangFeasibilityParameters, name}). Cluster-scoped like the
 * AdmissionCheck itself. Checked by the controller, not the schema, so that a bad value shows up
 * on the AdmissionCheck's Active condition, where Kueue users look.
 */
@Group(GangFeasibilityParameters.GROUP)
@Version(GangFeasibilityParameters.VERSION)
@Kind(GangFeasibilityParameters.KIND)
@Plural("gangfeasibilityparameters")
@AdditionalPrinterColumn(name = "Scope", jsonPath = ".spec.topologyScope", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Key", jsonPath = ".spec.topologyKey", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class GangFeasibilityParameters extends CustomResource<GangFeasibilityParametersSpec, Void> {
  public static final String GROUP = "koord4j.io";
  public static final String VERSION = "v1alpha1";
  public static final String KIND = "GangFeasibilityParameters";
}
