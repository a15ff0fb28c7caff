package io.koord4j.api.gang;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.Annotations;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;
import io.koord4j.api.quota.ElasticQuota;

/** A gang: pods that are scheduled all together or not at all. */
@Group(ElasticQuota.GROUP)
@Version(ElasticQuota.VERSION)
@Kind("PodGroup")
@Plural("podgroups")
@ShortNames({"pg", "pgs"})
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
@Annotations(ElasticQuota.API_APPROVED)
public class PodGroup extends CustomResource<PodGroupSpec, PodGroupStatus> implements Namespaced {}
