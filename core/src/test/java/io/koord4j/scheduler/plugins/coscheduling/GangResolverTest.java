package io.koord4j.scheduler.plugins.coscheduling;

import static io.koord4j.scheduler.Fixtures.pod;
import static io.koord4j.scheduler.Fixtures.withAnnotations;
import static io.koord4j.scheduler.Fixtures.withLabels;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.koord4j.api.WellKnown;
import io.koord4j.api.gang.PodGroup;
import io.koord4j.api.gang.PodGroupSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GangResolverTest {

  private final GangResolver resolver = new GangResolver(Map.of("default/pg", podGroup())::get);

  @Test
  void readsTheKoordinatorAnnotations() {
    Gang gang =
        resolver
            .gangOf(
                withAnnotations(
                    pod("p", "1", "1Gi"),
                    Map.of(
                        WellKnown.GANG_NAME, "train",
                        WellKnown.GANG_MIN_AVAILABLE, "4",
                        WellKnown.GANG_MODE, "NonStrict",
                        WellKnown.GANG_WAITING_TIME, "1m30s",
                        WellKnown.GANG_GROUPS, "[\"default/eval\"]")))
            .orElseThrow();
    assertThat(gang)
        .isEqualTo(
            new Gang("default/train", 4, false, Duration.ofSeconds(90), List.of("default/eval", "default/train")));
  }

  @Test
  void defaultsToStrictAndTenMinutes() {
    Gang gang =
        resolver
            .gangOf(withAnnotations(pod("p", "1", "1Gi"), Map.of(WellKnown.GANG_NAME, "g", WellKnown.GANG_MIN_AVAILABLE, "2")))
            .orElseThrow();
    assertThat(gang.strict()).isTrue();
    assertThat(gang.waitingTime()).isEqualTo(Duration.ofSeconds(600));
    assertThat(gang.group()).containsExactly("default/g");
  }

  @Test
  void readsAPodGroupNamedByTheLabel() {
    Gang gang =
        resolver.gangOf(withLabels(pod("p", "1", "1Gi"), Map.of(WellKnown.POD_GROUP_LABEL, "pg"))).orElseThrow();
    assertThat(gang).isEqualTo(new Gang("default/pg", 3, false, Duration.ofSeconds(30), List.of("default/pg")));
  }

  @Test
  void explainsAMissingPodGroupOrABadAnnotation() {
    assertThatThrownBy(
            () -> resolver.gangOf(withLabels(pod("p", "1", "1Gi"), Map.of(WellKnown.POD_GROUP_LABEL, "nope"))))
        .hasMessage("PodGroup default/nope does not exist");
    assertThatThrownBy(
            () ->
                resolver.gangOf(
                    withAnnotations(
                        pod("p", "1", "1Gi"),
                        Map.of(WellKnown.GANG_NAME, "g", WellKnown.GANG_WAITING_TIME, "soon"))))
        .hasMessageContaining("is not a duration");
  }

  @Test
  void aPodWithoutGangKeysHasNoGang() {
    assertThat(resolver.gangOf(pod("p", "1", "1Gi"))).isEmpty();
    assertThat(GangResolver.gangIdOf(pod("p", "1", "1Gi"))).isEmpty();
  }

  @Test
  void parsesGoDurations() {
    assertThat(GangResolver.waitingTime("300")).isEqualTo(Duration.ofSeconds(300));
    assertThat(GangResolver.waitingTime("1h")).isEqualTo(Duration.ofHours(1));
    assertThat(GangResolver.waitingTime("1.5s")).isEqualTo(Duration.ofMillis(1500));
    assertThat(GangResolver.waitingTime("250ms")).isEqualTo(Duration.ofMillis(250));
  }

  private static PodGroup podGroup() {
    PodGroup group = new PodGroup();
    group.setMetadata(
        new ObjectMetaBuilder()
            .withName("pg")
            .withNamespace("default")
            .withAnnotations(Map.of(WellKnown.GANG_MODE, "NonStrict"))
            .build());
    PodGroupSpec spec = new PodGroupSpec();
    spec.setMinMember(3);
    spec.setScheduleTimeoutSeconds(30);
    group.setSpec(spec);
    return group;
  }
}
