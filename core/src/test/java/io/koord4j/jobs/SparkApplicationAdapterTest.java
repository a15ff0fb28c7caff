package io.koord4j.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SparkApplicationAdapterTest {
  private static final long MI = 1L << 20;

  private final SparkApplicationAdapter adapter = new SparkApplicationAdapter();

  @Test
  void aDriverAndInstancesExecutorsSizedAsSparkSizesThem() {
    List<PodSetInfo> podSets = adapter.podSets(app("sparkapplication"));

    assertThat(podSets).extracting(PodSetInfo::name).containsExactly("driver", "executor");
    assertThat(podSets).extracting(PodSetInfo::count).containsExactly(1, 3);
    // The running driver creates the executors: the gang's minimum is the driver alone.
    assertThat(podSets).extracting(PodSetInfo::minCount).containsExactly(1, 0);
    // 512m of heap plus the 384 MiB minimum overhead, plus the sidecar.
    assertThat(podSets.get(0).perPodRequests())
        .containsEntry("cpu", new BigDecimal("1.1"))
        .containsEntry("memory", BigDecimal.valueOf((512 + 384 + 64) * MI));
    assertThat(podSets.get(1).perPodRequests())
        .containsEntry("cpu", new BigDecimal("1.5"))
        .containsEntry("memory", BigDecimal.valueOf(5 * 1024 * MI))
        .containsEntry("nvidia.com/gpu", BigDecimal.ONE);
    assertThat(adapter.priorityClassName(app("sparkapplication"))).contains("batch");
  }

  @Test
  void defaultsAreOneCoreAndOneGibibyteWithAPythonOverhead() {
    SparkApplication app = app("sparkapplication-python");

    assertThatThrownBy(() -> adapter.podSets(app))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("spec.executor.instances: is required");
    SparkApplication withInstances = app("sparkapplication-python");
    spec(withInstances, "executor").put("instances", 2);
    PodSetInfo driver = adapter.podSets(withInstances).get(0);
    assertThat(driver.perPodRequests())
        .containsEntry("cpu", BigDecimal.ONE)
        .containsEntry("memory", BigDecimal.valueOf((1024 + 409) * MI));
  }

  @Test
  void holdsThroughTheFieldAndTheAnnotationSoEitherCrdWorks() {
    SparkApplication running = app("sparkapplication");
    SparkApplication suspended = adapter.suspend(running);

    assertThat(adapter.isSuspended(running)).isFalse();
    assertThat(adapter.isSuspended(suspended)).isTrue();
    assertThat(suspended.getMetadata().getAnnotations())
        .containsEntry(SparkApplicationAdapter.SUSPEND_ANNOTATION, "true");
    // An API server whose CRD lacks spec.suspend drops it: the annotation still holds the job.
    spec(suspended, "").remove("suspend");
    assertThat(adapter.isSuspended(suspended)).isTrue();
    assertThat(adapter.isSuspended(adapter.resume(suspended))).isFalse();
    assertThat(adapter.isSuspended(app("sparkapplication-python"))).isTrue();
  }

  @Test
  void podTemplatesAreTheRolesLabelsAndAnnotations() {
    SparkApplication edited =
        adapter.editPodTemplates(
            app("sparkapplication"),
            t -> new PodTemplateSpecBuilder(t).editMetadata().addToAnnotations("gang", "g").endMetadata().build());

    assertThat(spec(edited, "driver").get("annotations")).isEqualTo(Map.of("gang", "g"));
    assertThat(spec(edited, "executor").get("labels")).isEqualTo(Map.of("version", "3.5.3"));
    assertThat(adapter.podSets(edited).get(1).template().getMetadata().getAnnotations())
        .containsEntry("gang", "g");
  }

  @Test
  void sparkMemoryStringsAreBinaryAndMebibytesWithoutAUnit() {
    assertThat(SparkApplicationAdapter.sparkMemory("512m", "f")).isEqualTo(BigDecimal.valueOf(512 * MI));
    assertThat(SparkApplicationAdapter.sparkMemory("2G", "f")).isEqualTo(BigDecimal.valueOf(2048 * MI));
    assertThat(SparkApplicationAdapter.sparkMemory("300", "f")).isEqualTo(BigDecimal.valueOf(300 * MI));
    assertThatThrownBy(() -> SparkApplicationAdapter.sparkMemory("lots", "spec.driver.memory"))
        .hasMessageStartingWith("spec.driver.memory: \"lots\" is not a Spark memory size");
  }

  @Test
  void statusFollowsTheApplicationState() {
    assertThat(adapter.status(app("sparkapplication"))).isEqualTo(JobPhase.RUNNING);
    assertThat(adapter.status(app("sparkapplication-python"))).isEqualTo(JobPhase.PENDING);
  }

  private static SparkApplication app(String name) {
    return Fixtures.load(name, SparkApplication.class);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> spec(SparkApplication app, String role) {
    Map<String, Object> spec = (Map<String, Object>) app.getAdditionalProperties().get("spec");
    return role.isEmpty() ? spec : (Map<String, Object>) spec.get(role);
  }
}
