package io.koord4j.quota.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.queue.core.ChargedPod;
import io.koord4j.quota.ResourceVector;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodChargesTest {
  private static PodBuilder pod(String node) {
    return new PodBuilder()
        .withNewMetadata().withName("p").withNamespace("ml").endMetadata()
        .withNewSpec()
        .withNodeName(node)
        .addNewContainer().withName("main")
        .withNewResources().addToRequests("cpu", new Quantity("2")).endResources()
        .endContainer()
        .endSpec();
  }

  @Test
  void aPodIsChargedToTheQuotaItNamesOrElseTheDefaultQuota() {
    Pod named = pod("n1").editMetadata().addToLabels(WellKnown.QUOTA_NAME, "team").endMetadata().build();
    Pod unnamed = pod(null).build();

    assertThat(PodCharges.of(named, Map.of(), unit -> true))
        .contains(new ChargedPod("team", ResourceVector.of("cpu", 2_000), true));
    assertThat(PodCharges.of(unnamed, Map.of(), unit -> true))
        .contains(new ChargedPod(WellKnown.DEFAULT_QUOTA, ResourceVector.of("cpu", 2_000), false));
  }

  @Test
  void podsOfAQueuedJobAndPodsThatEndedAreNotCharged() {
    Pod ofUnit = pod("n1").editMetadata()
        .addToAnnotations(WellKnown.RELATED_QUEUEUNIT, "ml/train").endMetadata().build();
    Pod ofLegacyUnit = pod("n1").editMetadata()
        .addToAnnotations("kube-queue/related-queueunit", "ml/train").endMetadata().build();
    Pod done = pod("n1").withNewStatus().withPhase("Succeeded").endStatus().build();

    Map<String, ElasticQuota> none = Map.of();
    assertThat(PodCharges.of(ofUnit, none, "ml/train"::equals)).isEmpty();
    assertThat(PodCharges.of(ofLegacyUnit, none, "ml/train"::equals)).isEmpty();
    assertThat(PodCharges.of(done, none, unit -> false)).isEmpty();
  }

  @Test
  void podsWhoseUnitIsGoneAreChargedToTheQuotaTheUnitWasAdmittedTo() {
    Pod orphan = pod("n1").editMetadata()
        .addToLabels(WellKnown.QUOTA_NAME, "elsewhere")
        .addToAnnotations(WellKnown.RELATED_QUEUEUNIT, "ml/train")
        .addToAnnotations(WellKnown.UNIT_QUOTA, "nlp").endMetadata().build();
    Pod orphanWithoutItsUnitsQuota = pod("n1").editMetadata()
        .addToAnnotations(WellKnown.RELATED_QUEUEUNIT, "ml/train").endMetadata().build();

    assertThat(PodCharges.of(orphan, Map.of(), unit -> false))
        .contains(new ChargedPod("nlp", ResourceVector.of("cpu", 2_000), true));
    assertThat(PodCharges.of(orphanWithoutItsUnitsQuota, Map.of(), unit -> false))
        .contains(new ChargedPod(WellKnown.DEFAULT_QUOTA, ResourceVector.of("cpu", 2_000), true));
  }
}
