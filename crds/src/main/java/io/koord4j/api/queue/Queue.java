package io.koord4j.api.queue;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumns;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/** A koord-queue queue: an ordered line of queue units served by one policy. */
@Group(Queue.GROUP)
@Version(Queue.VERSION)
@Kind("Queue")
@Plural("queues")
@AdditionalPrinterColumns({@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)})
public class Queue extends CustomResource<QueueSpec, QueueStatus> implements Namespaced {
  public static final String GROUP = "scheduling.x-k8s.io";
  public static final String VERSION = "v1alpha1";
  /** koord-queue keeps its queues here. */
  public static final String DEFAULT_NAMESPACE = "koord-queue";
}
