package io.koord4j.api.queue;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/** One job waiting for, or holding, admission; owned by the job it stands for. */
@Group(Queue.GROUP)
@Version(Queue.VERSION)
@Kind("QueueUnit")
@Plural("queueunits")
@ShortNames({"qu", "qus"})
@AdditionalPrinterColumn(
    name = "Job",
    jsonPath = ".spec.consumerRef.kind",
    type = AdditionalPrinterColumn.Type.STRING,
    priority = 1)
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class QueueUnit extends CustomResource<QueueUnitSpec, QueueUnitStatus>
    implements Namespaced {}
