package io.koord4j.api.quota;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * Koordinator's quota tree of its own for a set of nodes: the manager keeps the tree's root quota,
 * sized by the nodes its selector matches.
 */
@Group(ElasticQuotaProfile.GROUP)
@Version(ElasticQuotaProfile.VERSION)
@Kind("ElasticQuotaProfile")
@Plural("elasticquotaprofiles")
@ShortNames("eqp")
@AdditionalPrinterColumn(name = "Quota", jsonPath = ".spec.quotaName", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class ElasticQuotaProfile extends CustomResource<ElasticQuotaProfileSpec, ElasticQuotaProfileStatus>
    implements Namespaced {
  public static final String GROUP = "quota.koordinator.sh";
  public static final String VERSION = "v1alpha1";
}
