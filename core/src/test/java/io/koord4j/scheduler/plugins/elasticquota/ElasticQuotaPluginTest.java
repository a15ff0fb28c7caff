package io.koord4j.scheduler.plugins.elasticquota;

import static io.koord4j.scheduler.Fixtures.boundTo;
import static io.koord4j.scheduler.Fixtures.pod;
import static io.koord4j.scheduler.Fixtures.withLabels;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.koord4j.api.WellKnown;
import io.koord4j.quota.QuotaSpec;
import io.koord4j.quota.ResourceVector;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.Status;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ElasticQuotaPluginTest {

  private final QuotaAccounts accounts = new QuotaAccounts();
  private final ElasticQuotaPlugin plugin = new ElasticQuotaPlugin(accounts);

  @BeforeEach
  void quotaOfTwoCpus() {
    accounts.setClusterTotal(ResourceVector.of("cpu", 100_000, "memory", 1L << 40));
    accounts.setQuotas(
        List.of(
            QuotaSpec.group("org", "", ResourceVector.of("cpu", 10_000), ResourceVector.of("cpu", 10_000)),
            QuotaSpec.leaf("team", "org", ResourceVector.of("cpu", 1000), ResourceVector.of("cpu", 2000))),
        Map.of("team-ns", "team"));
  }

  @Test
  void admitsWithinRuntimeAndExplainsWhenOver() {
    Pod running = inTeam(boundTo(pod("running", "1500m", "1Gi"), "n"));
    accounts.podSeen(running);
    Pod next = inTeam(pod("next", "1", "1Gi"));
    accounts.podSeen(next);

    Status status = plugin.preFilter(new CycleState(), next);

    assertThat(status.code()).isEqualTo(Status.Code.UNSCHEDULABLE);
    assertThat(status.message()).isEqualTo("quota \"team\" has 500m of cpu available, 1 requested");

    accounts.podGone(running.getMetadata().getUid());
    assertThat(plugin.preFilter(new CycleState(), next)).isEqualTo(Status.SUCCESS);
  }

  @Test
  void reserveChargesAndUnreserveReleases() {
    Pod pod = inTeam(pod("p", "1500m", "1Gi"));
    accounts.podSeen(pod);
    plugin.reserve(new CycleState(), pod, "n");
    assertThat(accounts.used("team").get("cpu")).isEqualTo(1500);
    accounts.podSeen(boundTo(pod, "n"));
    assertThat(accounts.used("team").get("cpu")).as("bound after reserve: counted once").isEqualTo(1500);

    plugin.unreserve(new CycleState(), pod, "n");
    assertThat(accounts.used("team").get("cpu")).isZero();
  }

  @Test
  void findsTheQuotaByLabelNamespaceBindingOrNotAtAll() {
    assertThat(accounts.quotaOf(inTeam(pod("a", "1", "1Gi")))).contains("team");
    Pod bound = new PodBuilder(pod("b", "1", "1Gi")).editMetadata().withNamespace("team-ns").endMetadata().build();
    assertThat(accounts.quotaOf(bound)).contains("team");
    assertThat(accounts.quotaOf(pod("c", "1", "1Gi"))).as("no default quota exists").isEmpty();
    assertThat(plugin.preFilter(new CycleState(), pod("c", "100", "1Gi"))).isEqualTo(Status.SUCCESS);
  }

  @Test
  void aQueuedGangsPodIsChargedToTheQuotaItsUnitWasAdmittedToWhateverItsNamespaceIsBoundTo() {
    accounts.setQuotas(
        List.of(
            QuotaSpec.group("org", "", ResourceVector.of("cpu", 10_000), ResourceVector.of("cpu", 10_000)),
            QuotaSpec.leaf("team", "org", ResourceVector.of("cpu", 1000), ResourceVector.of("cpu", 2000)),
            QuotaSpec.leaf("other", "org", ResourceVector.of("cpu", 1000), ResourceVector.of("cpu", 2000))),
        Map.of("team-ns", "team"));
    Pod member = new PodBuilder(pod("m", "1", "1Gi"))
        .editMetadata().withNamespace("team-ns").addToAnnotations(WellKnown.UNIT_QUOTA, "other").endMetadata()
        .build();
    assertThat(accounts.quotaOf(member)).contains("other");
    Pod labelled = withLabels(member, Map.of(WellKnown.QUOTA_NAME, "team"));
    assertThat(accounts.quotaOf(labelled)).as("the label comes first").contains("team");
  }

  @Test
  void refusesParentQuotas() {
    Pod pod = withLabels(pod("p", "1", "1Gi"), Map.of(WellKnown.QUOTA_NAME, "org"));
    assertThat(plugin.preFilter(new CycleState(), pod).message())
        .isEqualTo("quota \"org\" is a parent quota; pods may only use leaf quotas");
  }

  @Test
  void aQuotaCreatedLaterChargesThePodsItGoverns() {
    Pod pod = withLabels(boundTo(pod("p", "1", "1Gi"), "n"), Map.of(WellKnown.QUOTA_NAME, "late"));
    accounts.podSeen(pod);
    accounts.setQuotas(
        List.of(QuotaSpec.leaf("late", "", ResourceVector.of("cpu", 0), ResourceVector.of("cpu", 4000))),
        Map.of());
    assertThat(accounts.used("late").get("cpu")).isEqualTo(1000);
  }

  @Test
  void aPodOfAProfilesTreeFitsOnlyItsTreesTotal() {
    ResourceVector unlimited = ResourceVector.of("cpu", Long.MAX_VALUE / 5);
    accounts.setQuotas(
        List.of(
            QuotaSpec.group("pool-root", "", ResourceVector.of("cpu", 4000), unlimited)
                .withTreeTotal(ResourceVector.of("cpu", 4000)),
            QuotaSpec.leaf("pool-team", "pool-root", ResourceVector.of("cpu", 0), unlimited)),
        Map.of());
    Pod running = withLabels(boundTo(pod("running", "3", "1Gi"), "n"), Map.of(WellKnown.QUOTA_NAME, "pool-team"));
    accounts.podSeen(running);
    Pod next = withLabels(pod("next", "2", "1Gi"), Map.of(WellKnown.QUOTA_NAME, "pool-team"));

    Status status = plugin.preFilter(new CycleState(), next);

    assertThat(status.code()).isEqualTo(Status.Code.UNSCHEDULABLE);
    assertThat(status.message()).isEqualTo("quota \"pool-team\" has 1 of cpu available, 2 requested");
  }

  private static Pod inTeam(Pod pod) {
    return withLabels(pod, Map.of(WellKnown.QUOTA_NAME, "team"));
  }
}
