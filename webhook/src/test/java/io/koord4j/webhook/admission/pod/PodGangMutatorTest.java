package io.koord4j.webhook.admission.pod;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.koord4j.api.WellKnown;
import io.koord4j.webhook.admission.Reviews;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class PodGangMutatorTest {
  private final List<String> lookedUp = new ArrayList<>();
  /** The manager admitted "train" in namespace "team" as a gang of 4. */
  private final PodGangMutator mutator =
      new PodGangMutator(
          (namespace, group) -> {
            lookedUp.add(namespace + "/" + group);
            return namespace.equals("team") && group.equals("train")
                ? OptionalInt.of(4)
                : OptionalInt.empty();
          });

  @Test
  void podOfAnAdmittedGangGetsTheGangAnnotations() {
    Pod pod = pod(Map.of(WellKnown.POD_GROUP_LABEL, "train"),
        Map.of(WellKnown.RELATED_QUEUEUNIT, "team/train"));

    JsonNode stored = Reviews.patched(Reviews.create(pod), mutator.handle(Reviews.create(pod)));

    assertThat(stored.path("metadata").path("annotations").path(WellKnown.GANG_NAME).asText())
        .isEqualTo("train");
    assertThat(stored.path("metadata").path("annotations").path(WellKnown.GANG_MIN_AVAILABLE).asText())
        .isEqualTo("4");
    assertThat(stored.path("metadata").path("annotations").path(WellKnown.RELATED_QUEUEUNIT).asText())
        .isEqualTo("team/train");
    assertThat(stored.path("metadata").path("labels").path(WellKnown.POD_GROUP_LABEL).asText())
        .isEqualTo("train");
  }

  @Test
  void podNamingItsUnitWithoutTheLabelAlsoGetsTheLabel() {
    Pod pod = pod(Map.of(), Map.of("kube-queue/related-queueunit", "team/train"));

    JsonNode stored = Reviews.patched(Reviews.create(pod), mutator.handle(Reviews.create(pod)));

    assertThat(stored.path("metadata").path("labels").path(WellKnown.POD_GROUP_LABEL).asText())
        .isEqualTo("train");
    assertThat(stored.path("metadata").path("annotations").path(WellKnown.GANG_NAME).asText())
        .isEqualTo("train");
  }

  @Test
  void podControlledByAJobFindsTheUnitNamedLikeTheJob() {
    Pod pod = new PodBuilder(pod(Map.of(), Map.of()))
        .editMetadata()
        .addNewOwnerReference()
        .withApiVersion("batch/v1").withKind("Job").withName("train").withUid("u1").withController(true)
        .endOwnerReference()
        .endMetadata()
        .build();
    pod.getMetadata().setLabels(null);
    pod.getMetadata().setAnnotations(null);

    JsonNode stored = Reviews.patched(Reviews.create(pod), mutator.handle(Reviews.create(pod)));

    assertThat(stored.path("metadata").path("labels").path(WellKnown.POD_GROUP_LABEL).asText())
        .isEqualTo("train");
    assertThat(stored.path("metadata").path("annotations").path(WellKnown.GANG_MIN_AVAILABLE).asText())
        .isEqualTo("4");
  }

  @Test
  void gangKeysTheJobControllerSetAreKept() {
    Pod pod = pod(Map.of(WellKnown.POD_GROUP_LABEL, "train"),
        Map.of(WellKnown.RELATED_QUEUEUNIT, "team/train", WellKnown.GANG_MIN_AVAILABLE, "2"));

    JsonNode stored = Reviews.patched(Reviews.create(pod), mutator.handle(Reviews.create(pod)));

    assertThat(stored.path("metadata").path("annotations").path(WellKnown.GANG_MIN_AVAILABLE).asText())
        .isEqualTo("2");
    assertThat(stored.path("metadata").path("annotations").path(WellKnown.GANG_NAME).asText())
        .isEqualTo("train");
  }

  @Test
  void podThatAlreadyJoinedGetsNoPatchAndCostsNoLookup() {
    Pod pod = pod(Map.of(WellKnown.POD_GROUP_LABEL, "train"),
        Map.of(WellKnown.RELATED_QUEUEUNIT, "team/train", WellKnown.GANG_NAME, "train",
            WellKnown.GANG_MIN_AVAILABLE, "4"));

    AdmissionReview answer = mutator.handle(Reviews.create(pod));

    assertThat(answer.getResponse().getAllowed()).isTrue();
    assertThat(answer.getResponse().getPatch()).isNull();
    assertThat(lookedUp).isEmpty();
  }

  @Test
  void podsOfNoQueuedJobOrOfAGangNotYetFormedAreLeftAlone() {
    List<Pod> pods = List.of(
        pod(Map.of(WellKnown.POD_GROUP_LABEL, "train"), Map.of()),
        pod(Map.of(WellKnown.POD_GROUP_LABEL, "other"), Map.of(WellKnown.RELATED_QUEUEUNIT, "team/other")),
        pod(Map.of(), Map.of(WellKnown.RELATED_QUEUEUNIT, "elsewhere/train")),
        pod(Map.of(), Map.of(WellKnown.RELATED_QUEUEUNIT, "malformed")));

    for (Pod pod : pods) {
      AdmissionReview answer = mutator.handle(Reviews.create(pod));
      assertThat(answer.getResponse().getAllowed()).isTrue();
      assertThat(answer.getResponse().getPatch()).isNull();
    }
    assertThat(lookedUp).containsExactly("team/other");
  }

  @Test
  void onlyCreationsAreMutated() {
    Pod pod = pod(Map.of(WellKnown.POD_GROUP_LABEL, "train"),
        Map.of(WellKnown.RELATED_QUEUEUNIT, "team/train"));

    AdmissionReview answer = mutator.handle(Reviews.review("UPDATE", pod));

    assertThat(answer.getResponse().getPatch()).isNull();
  }

  private static Pod pod(Map<String, String> labels, Map<String, String> annotations) {
    return new PodBuilder()
        .withNewMetadata()
        .withGenerateName("train-")
        .withNamespace("team")
        .withLabels(labels)
        .withAnnotations(annotations)
        .endMetadata()
        .withNewSpec()
        .addNewContainer().withName("main").withImage("busybox").endContainer()
        .endSpec()
        .build();
  }
}
