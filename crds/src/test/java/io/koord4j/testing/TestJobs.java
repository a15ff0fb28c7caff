package io.koord4j.testing;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;

/** Batch Jobs of one busybox container, for tests to finish with their own labels and fields. */
public final class TestJobs {
  private TestJobs() {}

  /**
   * A Job {@code name} in {@code namespace} (null: the client's) whose pods run once and each
   * request {@code cpu}.
   */
  public static JobBuilder job(String namespace, String name, String cpu) {
    return new JobBuilder()
        .withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
        .withNewSpec()
        .withNewTemplate()
        .withNewSpec()
        .withRestartPolicy("Never")
        .addNewContainer()
        .withName("main")
        .withImage("busybox")
        .withNewResources()
        .addToRequests("cpu", new Quantity(cpu))
        .endResources()
        .endContainer()
        .endSpec()
        .endTemplate()
        .endSpec();
  }
}
