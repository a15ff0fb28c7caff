package io.koord4j.api.quota;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.Annotations;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A node of Koordinator's elastic quota tree. Names are unique cluster-wide: the tree is built from
 * the parent label, which names the parent quota only.
 */
@Group(ElasticQuota.GROUP)
@Version(ElasticQuota.VERSION)
@Kind("ElasticQuota")
@Plural("elasticquotas")
@ShortNames({"eq", "eqs"})
@AdditionalPrinterColumn(
    name = "Parent",
    jsonPath = ".metadata.labels.quota\\.scheduling\\.koordinator\\.sh/parent",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "IsParent",
    jsonPath = ".metadata.labels.quota\\.scheduling\\.koordinator\\.sh/is-parent",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Min",
    jsonPath = ".spec.min",
    type = AdditionalPrinterColumn.Type.STRING,
    priority = 1)
@AdditionalPrinterColumn(
    name = "Max",
    jsonPath = ".spec.max",
    type = AdditionalPrinterColumn.Type.STRING,
    priority = 1)
@AdditionalPrinterColumn(
    name = "Used",
    jsonPath = ".status.used",
    type = AdditionalPrinterColumn.Type.STRING,
    priority = 1)
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
@Annotations(ElasticQuota.API_APPROVED)
public class ElasticQuota extends CustomResource<ElasticQuotaSpec, ElasticQuotaStatus>
    implements Namespaced {
  /** Shared with the scheduler-plugins capacity-scheduling ElasticQuota and PodGroup. */
  public static final String GROUP = "scheduling.sigs.k8s.io";

  public static final String VERSION = "v1alpha1";

  /** *.k8s.io groups need this approval; these kinds were approved for scheduler-plugins. */
  public static final String API_APPROVED =
      "api-approved.kubernetes.io=https://github.com/kubernetes-sigs/scheduler-plugins/pull/52";
}
