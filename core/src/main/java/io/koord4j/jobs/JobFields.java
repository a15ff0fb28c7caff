package io.koord4j.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Reads and writes the fields of job kinds that koord4j knows only as generic resources (no model
 * classes): nested maps and lists as Jackson reads them. Every read that can fail names the field
 * by its path in the object, e.g. {@code spec.tfReplicaSpecs.Worker.replicas}.
 */
final class JobFields {
  private JobFields() {}

  /** The top-level fields of a generic resource other than apiVersion, kind and metadata. */
  static Map<String, Object> root(GenericKubernetesResource job) {
    return job.getAdditionalProperties();
  }

  /** The job's {@code spec}, which every kind must have. */
  static Map<String, Object> spec(GenericKubernetesResource job) {
    return requiredObject(root(job), "spec", "");
  }

  /** The job's {@code status}, once its operator has written one. */
  static Optional<Map<String, Object>> status(GenericKubernetesResource job) {
    return object(root(job), "status", "");
  }

  /**
   * The text at {@code status.<keys>}, e.g. {@code status.applicationState.state}; empty when
   * missing, as before the kind's controller first reports.
   */
  static String statusText(GenericKubernetesResource job, String... keys) {
    Map<String, Object> node = status(job).orElse(null);
    String path = "status";
    for (int i = 0; i < keys.length - 1; i++) {
      node = object(node, keys[i], path).orElse(null);
      path = join(path, keys[i]);
    }
    return string(node, keys[keys.length - 1]).orElse("");
  }

  /** The object under {@code key}, if present. */
  static Optional<Map<String, Object>> object(Map<String, Object> node, String key, String path) {
    Object value = node == null ? null : node.get(key);
    if (value == null) {
      return Optional.empty();
    }
    if (!(value instanceof Map<?, ?> map)) {
      throw new IllegalArgumentException(join(path, key) + ": must be an object");
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> object = (Map<String, Object>) map;
    return Optional.of(object);
  }

  static Map<String, Object> requiredObject(Map<String, Object> node, String key, String path) {
    return object(node, key, path)
        .orElseThrow(() -> new IllegalArgumentException(join(path, key) + ": is required"));
  }

  /** The objects of the list under {@code key}; none when the list is absent. */
  static List<Map<String, Object>> objects(Map<String, Object> node, String key, String path) {
    Object value = node == null ? null : node.get(key);
    if (value == null) {
      return List.of();
    }
    if (!(value instanceof List<?> list)) {
      throw new IllegalArgumentException(join(path, key) + ": must be a list");
    }
    List<Map<String, Object>> objects = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      if (!(list.get(i) instanceof Map<?, ?> item)) {
        throw new IllegalArgumentException(join(path, key) + "[" + i + "]: must be an object");
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> object = (Map<String, Object>) item;
      objects.add(object);
    }
    return objects;
  }

  static Optional<String> string(Map<String, Object> node, String key) {
    Object value = node == null ? null : node.get(key);
    return value == null ? Optional.empty() : Optional.of(value.toString()).filter(s -> !s.isBlank());
  }

  static boolean isTrue(Map<String, Object> node, String key) {
    return node != null && Boolean.TRUE.equals(node.get(key));
  }

  /**
   * A number of pods under {@code key}, or {@code ifMissing} when absent (null: the field is
   * required).
   */
  static int count(Map<String, Object> node, String key, String path, Integer ifMissing) {
    Object value = node == null ? null : node.get(key);
    String field = join(path, key);
    if (value == null) {
      if (ifMissing == null) {
        throw new IllegalArgumentException(field + ": is required");
      }
      return ifMissing;
    }
    if (!(value instanceof Integer || value instanceof Long)) {
      throw new IllegalArgumentException(field + ": \"" + value + "\" is not a whole number");
    }
    long count = ((Number) value).longValue();
    if (count < 0) {
      throw new IllegalArgumentException(field + ": " + count + " must not be negative");
    }
    if (count > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(field + ": " + count + " is too large");
    }
    return (int) count;
  }

  /** The pod template under {@code key}, which must be present and have a spec. */
  static PodTemplateSpec template(Map<String, Object> node, String key, String path) {
    Map<String, Object> raw = requiredObject(node, key, path);
    PodTemplateSpec template;
    try {
      template = Serialization.jsonMapper().convertValue(raw, PodTemplateSpec.class);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(join(path, key) + ": not a pod template: " + e.getMessage());
    }
    if (template.getSpec() == null) {
      throw new IllegalArgumentException(join(path, key) + ".spec: is required");
    }
    return template;
  }

  /** Replaces the pod template under {@code key} (of a copy) by {@code edit} of it. */
  static void editTemplate(
      Map<String, Object> node, String key, String path, UnaryOperator<PodTemplateSpec> edit) {
    node.put(key, toMap(edit.apply(template(node, key, path))));
  }

  /** A pod set that must start whole, with the effective request of the template's pods. */
  static PodSetInfo podSet(String name, int count, PodTemplateSpec template, String templatePath) {
    return podSet(name, count, count, template, templatePath);
  }

  /** A pod set of which {@code minCount} pods must start together. */
  static PodSetInfo podSet(String name, int count, int minCount, PodTemplateSpec template, String templatePath) {
    PodSpec spec = template.getSpec();
    return new PodSetInfo(name, count, minCount, template, PodRequests.of(spec, templatePath + ".spec"));
  }

  /** The first priority class named by the pod sets' templates. */
  static Optional<String> priorityClassName(List<PodSetInfo> podSets) {
    return podSets.stream()
        .map(podSet -> podSet.template().getSpec().getPriorityClassName())
        .filter(name -> name != null && !name.isBlank())
        .findFirst();
  }

  /** The first numeric priority set on the pod sets' templates. */
  static Optional<Integer> priority(List<PodSetInfo> podSets) {
    return podSets.stream()
        .map(podSet -> podSet.template().getSpec().getPriority())
        .filter(Objects::nonNull)
        .findFirst();
  }

  /** The object under {@code key}, created empty if absent; for writing into a copy. */
  static Map<String, Object> mutableObject(Map<String, Object> node, String key) {
    Object value = node.get(key);
    if (value instanceof Map<?, ?>) {
      return object(node, key, "").orElseThrow();
    }
    Map<String, Object> created = new LinkedHashMap<>();
    node.put(key, created);
    return created;
  }

  /**
   * A pod template whose metadata is the {@code labels} and {@code annotations} of {@code node}
   * (where a kind keeps what it copies onto its pods), with an empty pod spec.
   */
  static PodTemplateSpec podMetadataTemplate(Map<String, Object> node, String path) {
    Map<String, Object> metadata = new LinkedHashMap<>();
    object(node, "labels", path).ifPresent(labels -> metadata.put("labels", labels));
    object(node, "annotations", path).ifPresent(annotations -> metadata.put("annotations", annotations));
    PodTemplateSpec template = new PodTemplateSpec();
    try {
      template.setMetadata(Serialization.jsonMapper().convertValue(metadata, ObjectMeta.class));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(path + ": labels and annotations must map strings to strings");
    }
    template.setSpec(new PodSpec());
    return template;
  }

  /** Stores the labels and annotations of an edited {@link #podMetadataTemplate} into {@code node}. */
  static void putPodMetadata(Map<String, Object> node, PodTemplateSpec template) {
    ObjectMeta metadata = template.getMetadata();
    node.put("labels", metadata.getLabels() == null ? Map.of() : metadata.getLabels());
    node.put("annotations", metadata.getAnnotations() == null ? Map.of() : metadata.getAnnotations());
  }

  /** Whether {@code spec.suspend} is true: the hold of most kinds. */
  static boolean isSpecSuspended(GenericKubernetesResource job) {
    return isTrue(object(root(job), "spec", "").orElse(null), "suspend");
  }

  /** A deep copy with {@code edit} applied to it, so that adapters never change the job they are given. */
  static <T extends GenericKubernetesResource> T editedCopy(T job, Consumer<T> edit) {
    T copy = Serialization.clone(job);
    edit.accept(copy);
    return copy;
  }

  /** Whether {@code status.conditions} holds a condition of this type with status True. */
  static boolean hasTrueCondition(GenericKubernetesResource job, String type) {
    return objects(status(job).orElse(null), "conditions", "status").stream()
        .anyMatch(c -> type.equals(c.get("type")) && "True".equals(c.get("status")));
  }

  static Map<String, Object> toMap(Object model) {
    @SuppressWarnings("unchecked")
    Map<String, Object> map = Serialization.jsonMapper().convertValue(model, LinkedHashMap.class);
    return map;
  }

  static String join(String path, String key) {
    return path == null || path.isEmpty() ? key : path + "." + key;
  }
}
