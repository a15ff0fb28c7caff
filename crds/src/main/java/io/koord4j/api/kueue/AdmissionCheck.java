package io.koord4j.api.kueue;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/** A cluster-scoped Kueue AdmissionCheck; koord4j runs the checks whose controller it is. */
public class AdmissionCheck extends KueueObject<AdmissionCheckSpec, AdmissionCheckStatus> {
  public static final String KIND = "AdmissionCheck";
  public static final String PLURAL = "admissionchecks";
  public static final ResourceDefinitionContext CONTEXT = context(KIND, PLURAL, false);
  /** koord4j's controllerName: it confirms a gang can really be placed. */
  public static final String KOORD4J_CONTROLLER = "koord4j.io/gang-feasibility";
  /** The condition type Kueue requires to be True before a ClusterQueue admits anything. */
  public static final String ACTIVE = "Active";
}
