package io.koord4j.api.kueue;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/** Kueue's unit of admission: one job's pod sets, the quota reserved for them and the checks. */
public class Workload extends KueueObject<WorkloadSpec, WorkloadStatus> {
  public static final String KIND = "Workload";
  public static final String PLURAL = "workloads";
  public static final ResourceDefinitionContext CONTEXT = context(KIND, PLURAL, true);
}
