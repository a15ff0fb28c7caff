package io.koord4j.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * What the Kubeflow training jobs share: replica specs {@code {replicas, template}} keyed by
 * replica type under {@code spec.<replicaSpecsField>}, held through
 * {@code spec.runPolicy.suspend}, and Kubeflow's job conditions (Running, Succeeded, Failed).
 *
 * <p>One pod set per replica type, named like the type in lower case as Kueue names them, in the
 * kind's usual order (e.g. the chief before the workers); a replica spec without
 * {@code replicas} runs one pod, Kubeflow's default.
 */
abstract class KubeflowJobAdapter<T extends GenericKubernetesResource> implements JobAdapter<T> {

  private final Class<T> type;
  private final String replicaSpecsPath;
  private final String replicaSpecsField;
  private final List<String> replicaTypeOrder;

  /**
   * @param replicaSpecsField e.g. {@code tfReplicaSpecs}
   * @param replicaTypeOrder the kind's replica types in pod-set order; unknown types follow
   */
  KubeflowJobAdapter(Class<T> type, String replicaSpecsField, List<String> replicaTypeOrder) {
    this.type = type;
    this.replicaSpecsField = replicaSpecsField;
    this.replicaSpecsPath = "spec." + replicaSpecsField;
    this.replicaTypeOrder = List.copyOf(replicaTypeOrder);
  }

  @Override
  public Class<T> type() {
    return type;
  }

  @Override
  public boolean isSuspended(T job) {
    return JobFields.isTrue(runPolicy(job).orElse(null), "suspend");
  }

  @Override
  public T editPodTemplates(T job, UnaryOperator<PodTemplateSpec> edit) {
    return JobFields.editedCopy(job, copy -> {
      Map<String, Object> replicaSpecs = replicaSpecs(copy);
      for (String replicaType : orderedTypes(replicaSpecs)) {
        Map<String, Object> replicaSpec =
            JobFields.requiredObject(replicaSpecs, replicaType, replicaSpecsPath);
        JobFields.editTemplate(
            replicaSpec, "template", replicaSpecsPath + "." + replicaType, edit);
      }
    });
  }

  @Override
  public List<PodSetInfo> podSets(T job) {
    Map<String, Object> replicaSpecs = replicaSpecs(job);
    List<PodSetInfo> podSets = new ArrayList<>();
    for (String replicaType : orderedTypes(replicaSpecs)) {
      String path = replicaSpecsPath + "." + replicaType;
      Map<String, Object> replicaSpec =
          JobFields.requiredObject(replicaSpecs, replicaType, replicaSpecsPath);
      podSets.add(
          JobFields.podSet(
              replicaType.toLowerCase(Locale.ROOT),
              JobFields.count(replicaSpec, "replicas", path, 1),
              JobFields.template(replicaSpec, "template", path),
              path + ".template"));
    }
    return podSets;
  }

  /** The class named by the run policy's scheduling policy, else by the first pod template. */
  @Override
  public Optional<String> priorityClassName(T job) {
    Optional<String> fromRunPolicy =
        runPolicy(job)
            .flatMap(p -> JobFields.object(p, "schedulingPolicy", "spec.runPolicy"))
            .flatMap(p -> JobFields.string(p, "priorityClass"));
    return fromRunPolicy.isPresent() ? fromRunPolicy : JobFields.priorityClassName(podSets(job));
  }

  @Override
  public JobPhase status(T job) {
    if (JobFields.hasTrueCondition(job, "Succeeded")) {
      return JobPhase.SUCCEEDED;
    }
    if (JobFields.hasTrueCondition(job, "Failed")) {
      return JobPhase.FAILED;
    }
    return JobFields.hasTrueCondition(job, "Running") ? JobPhase.RUNNING : JobPhase.PENDING;
  }

  private Map<String, Object> replicaSpecs(T job) {
    Map<String, Object> replicaSpecs = JobFields.requiredObject(JobFields.spec(job), replicaSpecsField, "spec");
    if (replicaSpecs.isEmpty()) {
      throw new IllegalArgumentException(replicaSpecsPath + ": needs at least one replica type");
    }
    return replicaSpecs;
  }

  private List<String> orderedTypes(Map<String, Object> replicaSpecs) {
    Comparator<String> known =
        Comparator.comparingInt(
            t -> replicaTypeOrder.contains(t) ? replicaTypeOrder.indexOf(t) : replicaTypeOrder.size());
    return replicaSpecs.keySet().stream().sorted(known.thenComparing(Comparator.naturalOrder())).toList();
  }

  private static Optional<Map<String, Object>> runPolicy(GenericKubernetesResource job) {
    return JobFields.object(JobFields.root(job), "spec", "")
        .flatMap(spec -> JobFields.object(spec, "runPolicy", "spec"));
  }

  @Override
  public List<JsonField> suspensionFields(boolean suspended) {
    return List.of(JsonField.of(suspended, "spec", "runPolicy", "suspend"));
  }
}
