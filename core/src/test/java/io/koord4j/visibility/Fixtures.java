package io.koord4j.visibility;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import io.koord4j.api.kueue.PodSet;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitSpec;
import io.koord4j.api.queue.QueueUnitStatus;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.api.quota.ElasticQuotaSpec;
import io.koord4j.api.quota.ElasticQuotaStatus;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Cluster objects as the manager leaves them, for the plugin's views. */
public final class Fixtures {
  public static final String CREATED = "2026-01-01T00:00:00Z";

  private Fixtures() {}

  /** A CPU quota; runtime null means the manager has not published one. */
  public static ElasticQuota quota(String name, String parent, boolean isParent, String min, String max, String runtime, String used) {
    ElasticQuota quota = new ElasticQuota();
    quota.getMetadata().setName(name);
    quota.getMetadata().setNamespace("koordinator-system");
    quota.getMetadata().setLabels(Map.of(WellKnown.QUOTA_PARENT, parent == null ? "" : parent,
        WellKnown.QUOTA_IS_PARENT, Boolean.toString(isParent)));
    if (runtime != null) {
      quota.getMetadata().setAnnotations(Map.of(WellKnown.QUOTA_RUNTIME, "{\"cpu\":\"" + runtime + "\"}"));
    }
    ElasticQuotaSpec spec = new ElasticQuotaSpec();
    spec.setMin(Map.of("cpu", new Quantity(min)));
    spec.setMax(Map.of("cpu", new Quantity(max)));
    quota.setSpec(spec);
    ElasticQuotaStatus status = new ElasticQuotaStatus();
    status.setUsed(Map.of("cpu", new Quantity(used)));
    quota.setStatus(status);
    return quota;
  }

  /** A Job's unit of {@code pods} pods of {@code cpu} each (and {@code gpus} GPUs when not 0). */
  public static QueueUnit unit(String name, String queue, String quota, int priority, String created, int pods, String cpu, int gpus) {
    QueueUnit unit = new QueueUnit();
    unit.getMetadata().setName(name);
    unit.getMetadata().setNamespace("team");
    unit.getMetadata().setCreationTimestamp(created);
    if (quota != null) {
      unit.getMetadata().setLabels(Map.of(WellKnown.QUOTA_NAME, quota));
    }
    QueueUnitSpec spec = new QueueUnitSpec();
    spec.setQueue(queue);
    spec.setPriority(priority);
    spec.setConsumerRef(new ObjectReferenceBuilder().withApiVersion("batch/v1").withKind("Job").withName(name).build());
    Map<String, Quantity> requests = new HashMap<>(Map.of("cpu", new Quantity(cpu)));
    if (gpus > 0) {
      requests.put(WellKnown.NVIDIA_GPU, new Quantity(Integer.toString(gpus)));
    }
    PodSet podSet = new PodSet();
    podSet.setName("main");
    podSet.setCount(pods);
    podSet.setTemplate(new PodTemplateSpecBuilder().withNewSpec().addNewContainer().withName("work")
        .withNewResources().withRequests(requests).endResources().endContainer().endSpec().build());
    spec.setPodSet(List.of(podSet));
    Map<String, Quantity> total = new HashMap<>();
    requests.forEach((resource, amount) -> total.put(resource,
        new Quantity(Quantity.getAmountInBytes(amount).multiply(java.math.BigDecimal.valueOf(pods)).toPlainString())));
    spec.setResource(total);
    unit.setSpec(spec);
    return unit;
  }

  public static QueueUnit withStatus(QueueUnit unit, String phase, Integer position, String message) {
    QueueUnitStatus status = new QueueUnitStatus();
    status.setPhase(phase);
    status.setPositionInQueue(position);
    status.setMessage(message);
    unit.setStatus(status);
    return unit;
  }

  public static Node gpuNode(String name, int gpus) {
    return new NodeBuilder().withNewMetadata().withName(name)
        .addToLabels(WellKnown.GPU_MODEL, "H100").endMetadata()
        .withNewStatus().addToAllocatable(WellKnown.NVIDIA_GPU, new Quantity(Integer.toString(gpus)))
        .addToAllocatable("cpu", new Quantity("96")).endStatus().build();
  }

  /** A pod bound to {@code node} holding the GPUs {@code minors}, as koord-scheduler records them. */
  public static Pod gpuHolder(String name, String node, int... minors) {
    StringBuilder gpus = new StringBuilder();
    for (int minor : minors) {
      gpus.append(gpus.length() == 0 ? "" : ",").append("{\"minor\":").append(minor)
          .append(",\"resources\":{\"koordinator.sh/gpu-core\":\"100\",\"koordinator.sh/gpu-memory-ratio\":\"100\"}}");
    }
    return new PodBuilder().withNewMetadata().withName(name).withNamespace("team")
        .addToAnnotations(WellKnown.DEVICE_ALLOCATED, "{\"gpu\":[" + gpus + "]}").endMetadata()
        .withNewSpec().withNodeName(node).addNewContainer().withName("work").withNewResources()
        .addToRequests(WellKnown.NVIDIA_GPU, new Quantity(Integer.toString(minors.length))).endResources()
        .endContainer().endSpec().build();
  }

  public static GenericKubernetesResource job(String name, Map<String, String> labels, boolean suspended) {
    GenericKubernetesResource job = new GenericKubernetesResource();
    job.setApiVersion("batch/v1");
    job.setKind("Job");
    job.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name).withNamespace("team")
        .withLabels(labels).build());
    job.setAdditionalProperty("spec", Map.of("suspend", suspended));
    return job;
  }
}
