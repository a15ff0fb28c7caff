package io.koord4j.scheduler.plugins.deviceshare;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import io.koord4j.api.device.Device;
import io.koord4j.scheduler.GpuFixtures;
import io.koord4j.scheduler.KoordScheduler;
import io.koord4j.scheduler.SchedulerTestBed;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A pod and a Device written with the GPU resource names of Koordinator's own GPU guide and of
 * older node agents ({@code kubernetes.io/gpu*}) are placed as their {@code koordinator.sh}
 * successors would be, and the allocation is written with the current names.
 */
class DeprecatedGpuNamesIT {
  /** The GPU guide's example pod; the test adds only its scheduler name and node pool. */
  private static final String GUIDE_POD =
      """
      apiVersion: v1
      kind: Pod
      metadata:
        name: pod-example
      spec:
        containers:
        - command:
          - sleep
          - 365d
          image: busybox
          imagePullPolicy: IfNotPresent
          name: curlimage
          resources:
            limits:
              cpu: 40m
              memory: 40Mi
              kubernetes.io/gpu: "100"
            requests:
              cpu: 40m
              memory: 40Mi
              kubernetes.io/gpu: "100"
        restartPolicy: Always
      """;

  private static SchedulerTestBed bed;
  private static String scheduler;
  private static String node;

  @BeforeAll
  static void start() {
    bed = new SchedulerTestBed("gpu-names-it");
    scheduler = KoordScheduler.DEFAULT_NAME + "-" + bed.run();
    bed.startScheduler(scheduler, new SimpleMeterRegistry());
    node = bed.addNodes("old", 1, "gn-" + bed.run(), "--gpus", "1").get(0);
  }

  @AfterAll
  static void stop() {
    if (bed != null) {
      bed.client().resources(Device.class).withName(node).delete();
      bed.close();
    }
  }

  @Test
  void theGuidesPodAskingKubernetesIoGpuGetsAWholeGpuOfADeviceListingDeprecatedNames() {
    bed.client().resource(deviceWithDeprecatedNames()).create();
    Pod template = bed.pod("pod-example", scheduler, "old", "40m");
    Pod pod = bed.client().pods().inNamespace(bed.namespace())
        .load(new ByteArrayInputStream(GUIDE_POD.getBytes(StandardCharsets.UTF_8))).item();
    pod.getMetadata().setNamespace(bed.namespace());
    pod.getSpec().setSchedulerName(scheduler);
    pod.getSpec().setNodeSelector(template.getSpec().getNodeSelector());
    pod.getSpec().setTolerations(template.getSpec().getTolerations());
    bed.client().resource(pod).create();

    Pod bound = bed.awaitBound("pod-example");

    assertThat(bound.getSpec().getNodeName()).isEqualTo(node);
    String allocated = bound.getMetadata().getAnnotations().get(WellKnown.DEVICE_ALLOCATED);
    assertThat(GpuFixtures.minors(allocated)).containsExactly(0);
    assertThat(allocated)
        .contains("\"koordinator.sh/gpu-core\":\"100\"", "\"koordinator.sh/gpu-memory-ratio\":\"100\"")
        .doesNotContain("kubernetes.io/gpu");
  }

  /** One GPU, as older node agents list it: kubernetes.io/gpu-core, -memory, -memory-ratio. */
  private static Device deviceWithDeprecatedNames() {
    Device device = GpuFixtures.device(node, 1);
    device.getSpec().getDevices().get(0).setResources(Map.of(
        "kubernetes.io/gpu-core", new Quantity("100"),
        "kubernetes.io/gpu-memory", new Quantity("16Gi"),
        "kubernetes.io/gpu-memory-ratio", new Quantity("100")));
    Node owner = bed.client().nodes().withName(node).get();
    device.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder()
        .withApiVersion("v1").withKind("Node").withName(node)
        .withUid(owner.getMetadata().getUid()).build()));
    return device;
  }
}
