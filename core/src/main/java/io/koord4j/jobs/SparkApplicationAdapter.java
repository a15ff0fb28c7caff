package io.koord4j.jobs;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.quantity.ResourceQuantities;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Spark Operator's SparkApplication: a driver pod and {@code spec.executor.instances}
 * executor pods, described by Spark settings rather than pod templates.
 *
 * <p>Hold: {@code spec.suspend} exists only in newer CRDs, and an API server whose CRD lacks it
 * silently drops it. So both {@code spec.suspend} and the annotation
 * {@code scheduling.x-k8s.io/suspend: "true"} are written, and either one holds the job: the
 * field where the installed CRD has it, the annotation otherwise.
 *
 * <p>Per pod, the Spark container requests {@code coreRequest} (else {@code cores}, default 1)
 * CPUs and {@code memory} (Spark's default 1g) plus its overhead: {@code memoryOverhead}, else
 * {@code spec.memoryOverheadFactor} (default 0.1, or 0.4 for Python and R) of the memory in whole
 * MiB but at least 384 MiB, as Spark sizes the pod; plus {@code gpu.quantity} of {@code gpu.name}. Sidecars
 * and init containers count as in any pod.
 *
 * <p>The gang's minimum is the driver alone: the executors are created by the running driver, so a
 * gang that waited for them would never start. The queue still charges every executor.
 */
public final class SparkApplicationAdapter implements JobAdapter<SparkApplication> {

  /** The hold annotation of operators whose CRD has no {@code spec.suspend}. */
  public static final String SUSPEND_ANNOTATION = "scheduling.x-k8s.io/suspend";

  private static final String DRIVER = "driver";
  private static final String EXECUTOR = "executor";
  private static final long MIB = 1024 * 1024;
  private static final BigDecimal MIN_OVERHEAD = BigDecimal.valueOf(384 * MIB);
  /** Spark's memory strings: a whole number with an optional binary unit; MiB without one. */
  private static final Pattern SPARK_MEMORY = Pattern.compile("(\\d+)\\s*([kmgtp]?)b?", Pattern.CASE_INSENSITIVE);

  @Override
  public Class<SparkApplication> type() {
    return SparkApplication.class;
  }

  @Override
  public boolean isSuspended(SparkApplication app) {
    Map<String, String> annotations = app.getMetadata().getAnnotations();
    return JobFields.isSpecSuspended(app)
        || (annotations != null && "true".equals(annotations.get(SUSPEND_ANNOTATION)));
  }

  @Override
  public List<JsonField> suspensionFields(boolean suspended) {
    return List.of(
        JsonField.of(suspended, "spec", "suspend"),
        suspended
            ? JsonField.of("true", "metadata", "annotations", SUSPEND_ANNOTATION)
            : JsonField.absent("metadata", "annotations", SUSPEND_ANNOTATION));
  }

  /** The operator copies each role's {@code labels} and {@code annotations} onto its pods. */
  @Override
  public SparkApplication editPodTemplates(
      SparkApplication app, UnaryOperator<PodTemplateSpec> edit) {
    return JobFields.editedCopy(app, copy -> {
      for (String role : List.of(DRIVER, EXECUTOR)) {
        Map<String, Object> roleSpec = JobFields.mutableObject(JobFields.spec(copy), role);
        JobFields.putPodMetadata(
            roleSpec, edit.apply(JobFields.podMetadataTemplate(roleSpec, "spec." + role)));
      }
    });
  }

  @Override
  public List<PodSetInfo> podSets(SparkApplication app) {
    Map<String, Object> spec = JobFields.spec(app);
    Map<String, Object> executor = JobFields.requiredObject(spec, EXECUTOR, "spec");
    return List.of(
        podSet(app, DRIVER, 1, 1),
        podSet(app, EXECUTOR, JobFields.count(executor, "instances", "spec.executor", null), 0));
  }

  @Override
  public JobPhase status(SparkApplication app) {
    return switch (JobFields.statusText(app, "applicationState", "state")) {
      case "COMPLETED" -> JobPhase.SUCCEEDED;
      case "FAILED", "SUBMISSION_FAILED" -> JobPhase.FAILED;
      case "RUNNING", "SUCCEEDING", "FAILING" -> JobPhase.RUNNING;
      default -> JobPhase.PENDING;
    };
  }

  private PodSetInfo podSet(SparkApplication app, String role, int count, int minCount) {
    String path = "spec." + role;
    Map<String, Object> roleSpec = JobFields.requiredObject(JobFields.spec(app), role, "spec");
    PodTemplateSpec template = JobFields.podMetadataTemplate(roleSpec, path);
    PodSpec podSpec = template.getSpec();
    podSpec.setPriorityClassName(JobFields.string(roleSpec, "priorityClassName").orElse(null));
    List<Container> containers = new ArrayList<>();
    containers.add(sparkContainer(app, role, roleSpec, path));
    containers.addAll(containers(roleSpec, "sidecars", path));
    podSpec.setContainers(containers);
    podSpec.setInitContainers(containers(roleSpec, "initContainers", path));
    return JobFields.podSet(role, count, minCount, template, path);
  }

  private static Container sparkContainer(
      SparkApplication app, String role, Map<String, Object> roleSpec, String path) {
    Map<String, Quantity> requests = new HashMap<>();
    Optional<String> coreRequest = JobFields.string(roleSpec, "coreRequest");
    if (coreRequest.isPresent()) {
      ResourceQuantities.parse(new Quantity(coreRequest.get()), path + ".coreRequest");
      requests.put("cpu", new Quantity(coreRequest.get()));
    } else {
      requests.put("cpu", new Quantity(Integer.toString(JobFields.count(roleSpec, "cores", path, 1))));
    }
    BigDecimal memory = sparkMemory(JobFields.string(roleSpec, "memory").orElse("1g"), path + ".memory");
    BigDecimal overhead =
        JobFields.string(roleSpec, "memoryOverhead").isPresent()
            ? sparkMemory(JobFields.string(roleSpec, "memoryOverhead").get(), path + ".memoryOverhead")
            : defaultOverhead(memory, overheadFactor(app));
    requests.put("memory", ResourceQuantities.toQuantity(memory.add(overhead)));
    Optional<Map<String, Object>> gpu = JobFields.object(roleSpec, "gpu", path);
    if (gpu.isPresent()) {
      String gpuPath = path + ".gpu";
      String name =
          JobFields.string(gpu.get(), "name")
              .orElseThrow(() -> new IllegalArgumentException(gpuPath + ".name: is required"));
      requests.put(name, new Quantity(Integer.toString(JobFields.count(gpu.get(), "quantity", gpuPath, null))));
    }
    return new ContainerBuilder()
        .withName("spark-kubernetes-" + role)
        .withNewResources()
        .withRequests(requests)
        .endResources()
        .build();
  }

  /** As Spark computes it: the factor times the memory, in whole MiB, at least 384 MiB. */
  private static BigDecimal defaultOverhead(BigDecimal memory, BigDecimal factor) {
    BigDecimal mebibytes = BigDecimal.valueOf(MIB);
    BigDecimal overhead =
        memory.multiply(factor).divide(mebibytes, 0, RoundingMode.FLOOR).multiply(mebibytes);
    return overhead.max(MIN_OVERHEAD);
  }

  private static BigDecimal overheadFactor(SparkApplication app) {
    Map<String, Object> spec = JobFields.spec(app);
    Optional<String> factor = JobFields.string(spec, "memoryOverheadFactor");
    if (factor.isPresent()) {
      try {
        return new BigDecimal(factor.get());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "spec.memoryOverheadFactor: \"" + factor.get() + "\" is not a number");
      }
    }
    String type = JobFields.string(spec, "type").orElse("");
    return type.equals("Python") || type.equals("R") ? new BigDecimal("0.4") : new BigDecimal("0.1");
  }

  /** Bytes of a Spark memory string such as {@code 512m} or {@code 4g}. */
  static BigDecimal sparkMemory(String text, String path) {
    Matcher matcher = SPARK_MEMORY.matcher(text.strip());
    if (!matcher.matches()) {
      throw new IllegalArgumentException(path + ": \"" + text + "\" is not a Spark memory size such as 512m or 4g");
    }
    int power = "kmgtp".indexOf(matcher.group(2).toLowerCase()) + 1;
    long unit = matcher.group(2).isEmpty() ? MIB : 1L << (10 * power);
    return new BigDecimal(matcher.group(1)).multiply(BigDecimal.valueOf(unit));
  }

  private static List<Container> containers(Map<String, Object> roleSpec, String key, String path) {
    List<Map<String, Object>> raw = JobFields.objects(roleSpec, key, path);
    List<Container> containers = new ArrayList<>();
    for (int i = 0; i < raw.size(); i++) {
      try {
        containers.add(Serialization.jsonMapper().convertValue(raw.get(i), Container.class));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            path + "." + key + "[" + i + "]: not a container: " + e.getMessage());
      }
    }
    return containers;
  }
}
