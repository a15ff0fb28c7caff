package io.koord4j.webhook.admission.pod;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.NodeSelectorTermBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.api.quota.ElasticQuotaProfile;
import io.koord4j.api.quota.ElasticQuotaProfileSpec;
import io.koord4j.webhook.admission.Json;
import io.koord4j.webhook.admission.Reviews;
import io.koord4j.webhook.admission.quota.Quotas;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Pods of a profile's quota tree are kept on the profile's nodes. */
class PodQuotaTreeMutatorTest {
  private static final String POOL = "node-pool";

  /**
   * Profile "gpu" (in namespace team) keeps root quota "gpu-root" (tree 42) with child "train";
   * "web" is in the default tree. The leaves are kept in koordinator-system, so that neither serves
   * the pods of namespace team by living there.
   */
  private final List<ElasticQuota> quotas = new ArrayList<>(List.of(
      Quotas.withLabel(Quotas.withLabel(Quotas.withLabel(Quotas.group("gpu-root", "", "8", "8"),
          WellKnown.QUOTA_IS_ROOT, "true"), WellKnown.QUOTA_TREE_ID, "42"), WellKnown.QUOTA_PROFILE, "gpu"),
      keptApart(Quotas.withLabel(Quotas.leaf("train", "gpu-root", "0", "8"), WellKnown.QUOTA_TREE_ID, "42")),
      keptApart(Quotas.leaf("web", "", "0", "8"))));
  private final List<ElasticQuotaProfile> profiles = new ArrayList<>(List.of(
      profile(new LabelSelectorBuilder().addToMatchLabels(POOL, "gpu").build())));
  private final PodQuotaTreeMutator mutator = new PodQuotaTreeMutator(() -> quotas, () -> profiles);

  @Test
  void aPodOfTheTreeIsRequiredOnTheProfilesNodes() {
    JsonNode stored = created(pod("train", List.of()));

    assertThat(terms(stored)).containsExactly(term(POOL, "gpu"));
  }

  @Test
  void everyOwnTermAlsoRequiresTheProfilesNodes() {
    NodeSelectorTerm zoneA = term("zone", "a");
    NodeSelectorTerm zoneB = term("zone", "b");

    JsonNode stored = created(pod("train", List.of(zoneA, zoneB)));

    assertThat(terms(stored)).containsExactly(
        term("zone", "a", POOL, "gpu"), term("zone", "b", POOL, "gpu"));
  }

  @Test
  void aRequirementTheTermHoldsIsNotAddedTwice() {
    Pod pod = pod("train", List.of(term(POOL, "gpu")));

    AdmissionReview answer = mutator.handle(Reviews.create(pod));

    assertThat(answer.getResponse().getAllowed()).isTrue();
    assertThat(answer.getResponse().getPatch()).isNull();
  }

  @Test
  void aPodOfTheNamespacesQuotaInTheTreeIsKeptToo() {
    quotas.add(Quotas.withLabel(Quotas.leaf("team", "gpu-root", "0", "8"), WellKnown.QUOTA_TREE_ID, "42"));

    JsonNode stored = created(pod(null, List.of()));

    assertThat(terms(stored)).containsExactly(term(POOL, "gpu"));
  }

  @Test
  void expressionsOfTheSelectorBecomeRequirements() {
    profiles.set(0, profile(new LabelSelectorBuilder()
        .addNewMatchExpression().withKey(POOL).withOperator("NotIn").withValues("cpu").endMatchExpression()
        .addNewMatchExpression().withKey("gpu").withOperator("Exists").endMatchExpression()
        .build()));

    JsonNode stored = created(pod("train", List.of()));

    assertThat(terms(stored)).containsExactly(new NodeSelectorTermBuilder()
        .addNewMatchExpression().withKey(POOL).withOperator("NotIn").withValues("cpu").endMatchExpression()
        .addNewMatchExpression().withKey("gpu").withOperator("Exists").endMatchExpression()
        .build());
  }

  @Test
  void podsOutsideAProfilesTreeAreLeftAsTheyAre() {
    for (Pod pod : List.of(pod("web", List.of()), pod(null, List.of()), pod("missing", List.of()))) {
      AdmissionReview answer = mutator.handle(Reviews.create(pod));
      assertThat(answer.getResponse().getAllowed()).isTrue();
      assertThat(answer.getResponse().getPatch()).isNull();
    }
  }

  @Test
  void aTreeNoProfileKeepsIsLeftAlone() {
    profiles.clear();

    AdmissionReview answer = mutator.handle(Reviews.create(pod("train", List.of())));

    assertThat(answer.getResponse().getPatch()).isNull();
  }

  @Test
  void anUpdateIsLeftAlone() {
    Pod pod = pod("train", List.of());

    AdmissionReview answer = mutator.handle(Reviews.update(pod, pod));

    assertThat(answer.getResponse().getPatch()).isNull();
  }

  @Test
  void aSelectorWithoutANodeAffinityCounterpartRefusesThePodNamingTheField() {
    profiles.set(0, profile(new LabelSelectorBuilder()
        .addNewMatchExpression().withKey(POOL).withOperator("Gt").withValues("1").endMatchExpression().build()));

    AdmissionReview answer = mutator.handle(Reviews.create(pod("train", List.of())));

    assertThat(answer.getResponse().getAllowed()).isFalse();
    assertThat(answer.getResponse().getStatus().getMessage()).isEqualTo(
        "ElasticQuotaProfile team/gpu: spec.nodeSelector.matchExpressions[0].operator \"Gt\" must be one of"
            + " In, NotIn, Exists, DoesNotExist; the pod's quota tree cannot be kept to its nodes");
  }

  @Test
  void aPodReceivedAsJsonIsMutatedOnACopy() {
    AdmissionReview review = Reviews.create(pod("train", List.of()));
    JsonNode received = Json.MAPPER.valueToTree(review.getRequest().getObject());
    review.getRequest().setObject(received);
    JsonNode before = received.deepCopy();

    JsonNode stored = Reviews.patched(review, mutator.handle(review));

    assertThat(received).isEqualTo(before);
    assertThat(terms(stored)).containsExactly(term(POOL, "gpu"));
  }

  private JsonNode created(Pod pod) {
    AdmissionReview review = Reviews.create(pod);
    return Reviews.patched(review, mutator.handle(review));
  }

  private static List<NodeSelectorTerm> terms(JsonNode pod) {
    JsonNode terms = pod.path("spec").path("affinity").path("nodeAffinity")
        .path("requiredDuringSchedulingIgnoredDuringExecution").path("nodeSelectorTerms");
    List<NodeSelectorTerm> read = new ArrayList<>();
    terms.forEach(term -> read.add(Json.MAPPER.convertValue(term, NodeSelectorTerm.class)));
    return read;
  }

  /** A term requiring each label, given as key, value, key, value... in order. */
  private static NodeSelectorTerm term(String... keysAndValues) {
    NodeSelectorTermBuilder term = new NodeSelectorTermBuilder();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      term.addNewMatchExpression().withKey(keysAndValues[i]).withOperator("In").withValues(keysAndValues[i + 1])
          .endMatchExpression();
    }
    return term.build();
  }

  private static ElasticQuotaProfile profile(LabelSelector selector) {
    ElasticQuotaProfile profile = new ElasticQuotaProfile();
    profile.getMetadata().setName("gpu");
    profile.getMetadata().setNamespace("team");
    ElasticQuotaProfileSpec spec = new ElasticQuotaProfileSpec();
    spec.setQuotaName("gpu-root");
    spec.setNodeSelector(selector);
    profile.setSpec(spec);
    return profile;
  }

  private static ElasticQuota keptApart(ElasticQuota quota) {
    quota.getMetadata().setNamespace("koordinator-system");
    return quota;
  }

  private static Pod pod(String quota, List<NodeSelectorTerm> terms) {
    PodBuilder pod = new PodBuilder()
        .withNewMetadata().withGenerateName("train-").withNamespace("team")
        .withLabels(quota == null ? Map.of() : Map.of(WellKnown.QUOTA_NAME, quota)).endMetadata()
        .withNewSpec().addNewContainer().withName("main").withImage("busybox").endContainer().endSpec();
    if (!terms.isEmpty()) {
      pod.editSpec().withNewAffinity().withNewNodeAffinity().withNewRequiredDuringSchedulingIgnoredDuringExecution()
          .withNodeSelectorTerms(terms).endRequiredDuringSchedulingIgnoredDuringExecution().endNodeAffinity()
          .endAffinity().endSpec();
    }
    return pod.build();
  }
}
