package io.koord4j.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueSpec;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.jobs.JobAdapters;
import io.koord4j.webhook.admission.FixedQueues;
import io.koord4j.webhook.admission.quota.QuotaLookup;
import io.koord4j.webhook.admission.quota.Quotas;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * ElasticQuota and Queue rules through the real API server: each violating object is refused
 * with a message that names the field and the rule.
 */
class ResourceWebhooksIT {
  private static final String PARENT = "metadata.labels[quota.scheduling.koordinator.sh/parent]";

  @RegisterExtension
  final WebhookTestBed bed = new WebhookTestBed("quota-it");
  private final KubernetesClient client = bed.client;
  private final String suffix = bed.suffix;
  private final String ownNamespace = bed.ownNamespace;
  private final String quotaNamespace = bed.objectNamespace;
  private WebhookServer server;

  @BeforeEach
  void setUp() {
    QuotaLookup quotas = bed.startCache().quotas();
    server =
        new WebhookServer(
            client,
            WebhookServerIT.settings(ownNamespace, "quota-" + suffix),
            JobAdapters.builtIn(),
            FixedQueues.NONE,
            quotas,
            ResourceWebhooks.mutating(quotas),
            ResourceWebhooks.validating(quotas));
    bed.start(server);
    // The configurations take a moment to reach the API server.
    await().atMost(Duration.ofSeconds(20)).until(
        () -> refusal(Quotas.leaf(name("probe"), name("nowhere"), "1", "2")) != null);
  }

  @Test
  void treeRulesAreEnforcedWithMessagesNamingTheFieldAndTheRule() {
    String org = name("org");
    ElasticQuota parent = create(Quotas.group(org, "", "10", "100"));
    assertThat(parent.getMetadata().getLabels())
        .as("defaulted parent").containsEntry(WellKnown.QUOTA_PARENT, WellKnown.ROOT_QUOTA);
    assertThat(parent.getMetadata().getAnnotations())
        .as("defaulted shared weight").containsEntry(WellKnown.QUOTA_SHARED_WEIGHT, "{\"cpu\":\"100\"}");
    String leaf = name("leaf");
    create(Quotas.leaf(leaf, "", "1", "2"));
    String teamA = name("team-a");
    // Right after its parent: the webhook's cache may not hold the parent yet.
    create(Quotas.group(teamA, org, "6", "50"));

    assertThat(refusal(Quotas.leaf(name("b"), name("team-x"), "1", "2")))
        .contains(PARENT + ": parent \"" + name("team-x") + "\" does not exist");
    assertThat(refusal(Quotas.leaf(name("b"), leaf, "1", "2")))
        .contains(PARENT + ": parent \"" + leaf + "\" is not a parent quota");
    assertThat(refusal(Quotas.quota(name("b"), org, false, Map.of(), Map.of("nvidia.com/gpu", "1"))))
        .contains("spec.max[nvidia.com/gpu]: max names nvidia.com/gpu, which the max of its parent");
    assertThat(refusal(Quotas.leaf(name("b"), org, "6", "50")))
        .contains("spec.min[cpu]: quota \"" + org + "\": its children's min cpu sums to 12, above "
            + "its own min (10)");
    assertThat(refusal(Quotas.group(org, teamA, "10", "100")))
        .contains(PARENT + ": its parent chain loops back to it");
    assertThat(refusal(Quotas.withLabel(Quotas.group(org, "", "10", "100"),
            WellKnown.QUOTA_IS_PARENT, "false")))
        .contains("metadata.labels[quota.scheduling.koordinator.sh/is-parent]: must be \"true\" "
            + "while the quota has children");
    assertThat(refusal(Quotas.withLabel(Quotas.leaf(name("b"), org, "1", "2"),
            WellKnown.QUOTA_TREE_ID, "other")))
        .contains("metadata.labels[quota.scheduling.koordinator.sh/tree-id]: \"other\" differs "
            + "from no tree-id of parent \"" + org + "\"");
    assertThat(refusal(Quotas.leaf(name("b"), "", "3", "2")))
        .as("refused by the CRD's own rule or the webhook").contains("spec.min", "exceeds");

    assertThatThrownBy(() -> quotas().withName(org).delete())
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getMessage())
            .contains("metadata.name: quota \"" + org + "\" cannot be deleted while it has "
                + "children (\"" + teamA + "\")"));
  }

  @Test
  void theManagersPublishedFiguresAreWrittenWithoutCallingTheWebhooksButOtherChangesAreNot() {
    String team = name("figures");
    create(Quotas.group(team, "", "10", "100"));
    // The configurations stay and fail closed: a write sent to them is refused at once.
    server.close();

    quotas().withName(team).patch(PatchContext.of(PatchType.JSON_MERGE), annotations(Map.of(
        WellKnown.QUOTA_RUNTIME, "{\"cpu\":\"4\"}", WellKnown.QUOTA_REQUEST, "{\"cpu\":\"6\"}")));
    assertThat(quotas().withName(team).get().getMetadata().getAnnotations())
        .containsEntry(WellKnown.QUOTA_RUNTIME, "{\"cpu\":\"4\"}")
        .containsEntry(WellKnown.QUOTA_REQUEST, "{\"cpu\":\"6\"}");

    assertThat(refusedPatch(team, annotations(Map.of(WellKnown.QUOTA_SHARED_WEIGHT, "{\"cpu\":\"50\"}"))))
        .as("another annotation").contains("failed calling webhook");
    assertThat(refusedPatch(team, "{\"metadata\":{\"labels\":{\"" + WellKnown.QUOTA_TREE_ID + "\":\"other\"}}}"))
        .as("a label").contains("failed calling webhook");
    assertThat(refusedPatch(team, "{\"spec\":{\"max\":{\"cpu\":\"90\"}}}"))
        .as("the spec").contains("failed calling webhook");
  }

  private String refusedPatch(String quota, String mergePatch) {
    try {
      quotas().withName(quota).patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch);
      return null;
    } catch (KubernetesClientException e) {
      return e.getMessage();
    }
  }

  private static String annotations(Map<String, String> annotations) {
    return Serialization.asJson(Map.of("metadata", Map.of("annotations", annotations)));
  }

  @Test
  void aChildWithoutATreeIdJoinsItsParentsTree() {
    String pool = name("pool");
    ElasticQuota parent =
        Quotas.withLabel(Quotas.group(pool, "", "10", "100"), WellKnown.QUOTA_TREE_ID, pool);
    create(parent);

    ElasticQuota child = create(Quotas.leaf(name("pool-team"), pool, "1", "2"));

    assertThat(child.getMetadata().getLabels()).containsEntry(WellKnown.QUOTA_TREE_ID, pool);
  }

  @Test
  void queuePolicyMustBeKnown() {
    Queue queue = new Queue();
    queue.setMetadata(new ObjectMetaBuilder().withName("gpu").withNamespace(quotaNamespace).build());
    queue.setSpec(new QueueSpec());
    queue.getSpec().setQueuePolicy("Fair");

    assertThatThrownBy(() -> client.resource(queue).dryRun().create())
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getMessage())
            .contains("spec.queuePolicy: \"Fair\" is not supported; use Priority, Block or FIFO"));
  }

  /**
   * Creates the quota, or updates it when it exists, as a dry run (admission runs, nothing is
   * stored); the refusal message, or null when it would be stored.
   */
  private String refusal(ElasticQuota quota) {
    quota.getMetadata().setNamespace(quotaNamespace);
    ElasticQuota stored = quotas().withName(quota.getMetadata().getName()).get();
    try {
      if (stored == null) {
        quotas().resource(quota).dryRun().create();
      } else {
        quota.getMetadata().setResourceVersion(stored.getMetadata().getResourceVersion());
        quotas().resource(quota).dryRun().update();
      }
      return null;
    } catch (KubernetesClientException e) {
      return e.getMessage();
    }
  }

  private ElasticQuota create(ElasticQuota quota) {
    quota.getMetadata().setNamespace(quotaNamespace);
    return quotas().resource(quota).create();
  }

  private NonNamespaceOperation<ElasticQuota, KubernetesResourceList<ElasticQuota>,
      Resource<ElasticQuota>> quotas() {
    return client.resources(ElasticQuota.class).inNamespace(quotaNamespace);
  }

  /** Quota names are cluster-wide: each run uses its own. */
  private String name(String base) {
    return base + "-" + suffix;
  }
}
