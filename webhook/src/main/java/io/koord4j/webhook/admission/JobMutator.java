package io.koord4j.webhook.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.koord4j.api.WellKnown;
import io.koord4j.jobs.JobAdapter;
import io.koord4j.jobs.JobAdapters;
import io.koord4j.jobs.JsonField;
import io.koord4j.jobs.JsonFieldEdit;
import io.koord4j.jobs.QueueMembership;
import io.koord4j.webhook.admission.quota.QuotaLookup;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Holds queued jobs back when they are created: every job kind known to {@link JobAdapters} that
 * names a queue or quota, or lives in a managed namespace, is stored suspended and marked as taken
 * into the queue ({@link JobAdapter#enqueueFields}), so that no pod starts before the queue admits the
 * whole gang and the queue has nothing to write before it creates the job's unit. A job its kind
 * skips (see {@link JobAdapter#isSkipped}), such as the RayCluster of a RayJob, is left as it is.
 *
 * <p>Queue label: the original labels are kept. When the queue is named only by the
 * {@code koord-queue/queue-name} annotation, or is the namespace's {@value #DEFAULT_QUEUE} queue,
 * the label {@code kueue.x-k8s.io/queue-name} is added, so that every queued job can be selected
 * by a label (webhook object selectors, informers). A job that already carries the Kueue or quota
 * label is left as it is; copying a quota name into the Kueue label would make a Kueue installed
 * alongside claim the job too.
 *
 * <p>Quota: a job may name only a quota bound to its namespace ({@link BoundQuotaCheck}). A job
 * created naming another namespace's quota is refused, and so is an update that changes its quota
 * label to such a quota.
 *
 * <p>Updates, as Kueue does: a queued job that runs (admitted, not suspended) keeps its queue and
 * the size its queue admitted (pod counts and requests; no kind koord4j queues resizes a running
 * gang). Such an update is refused unless it also suspends the job; the job reconciler undoes a
 * change that lands anyway. A job its queue holds stays held until koord4j resumes it ({@link
 * QueuedJobChanges}): nobody else may resume it, nor take it out of every queue.
 */
public final class JobMutator {
  /** The queue a job without a queue label joins when the namespace has one of this name. */
  public static final String DEFAULT_QUEUE = "default";
  /** The code of a refused quota: the job is well formed, but its namespace may not use the quota. */
  private static final int FORBIDDEN = 403;

  private final JobAdapters adapters;
  private final QueueLookup queues;
  private final BoundQuotaCheck boundQuotas;
  private final boolean useNamespaceDefaultQueue;
  private final String koord4jUser;
  private final Clock clock;

  /**
   * @param quotas the ElasticQuotas, to refuse a job that names one not bound to its namespace
   * @param koord4jUser the user koord4j resumes jobs as, whose updates may release a held job
   */
  public JobMutator(
      JobAdapters adapters,
      QueueLookup queues,
      QuotaLookup quotas,
      boolean useNamespaceDefaultQueue,
      String koord4jUser) {
    this(adapters, queues, quotas, useNamespaceDefaultQueue, koord4jUser, Clock.systemUTC());
  }

  JobMutator(
      JobAdapters adapters,
      QueueLookup queues,
      QuotaLookup quotas,
      boolean useNamespaceDefaultQueue,
      String koord4jUser,
      Clock clock) {
    this.adapters = adapters;
    this.queues = queues;
    this.boundQuotas = new BoundQuotaCheck(quotas);
    this.useNamespaceDefaultQueue = useNamespaceDefaultQueue;
    this.koord4jUser = koord4jUser;
    this.clock = clock;
  }

  /**
   * The handler for jobs the API server sends because of their labels ({@code false}) or because
   * their namespace matches the managed-namespace selector ({@code true}). The selector is
   * evaluated by the API server, so the handler needs no namespace lookup.
   */
  public AdmissionHandler handler(boolean namespaceManaged) {
    return review -> mutate(review, namespaceManaged);
  }

  AdmissionReview mutate(AdmissionReview review, boolean namespaceManaged) {
    AdmissionRequest request = review.getRequest();
    boolean update = "UPDATE".equals(request.getOperation()) && request.getOldObject() != null;
    if (!("CREATE".equals(request.getOperation()) || update) || request.getObject() == null) {
      return AdmissionResponses.allow(request);
    }
    ObjectNode job = json(request.getObject());
    String apiVersion = job.path("apiVersion").asText();
    String kind = job.path("kind").asText();
    Optional<JobAdapter<?>> adapter = adapters.find(apiVersion, kind);
    if (adapter.isEmpty()) {
      return AdmissionResponses.allow(request);
    }
    try {
      return update
          ? checkUpdate(request, job, adapter.get(), namespaceManaged)
          : hold(request, job, adapter.get(), namespaceManaged);
    } catch (IllegalArgumentException e) {
      return AdmissionResponses.deny(
          request, 400, "cannot read the " + apiVersion + " " + kind + ": " + e.getMessage());
    }
  }

  /**
   * Holds a created job for its queue by patching the fields that do so, read and written on the
   * job's JSON: the job's own fields are left unread (the API server checks them).
   */
  private AdmissionReview hold(
      AdmissionRequest request, ObjectNode job, JobAdapter<?> adapter, boolean namespaceManaged) {
    ObjectMeta metadata = Json.metadata(job);
    if (adapter.isSkipped(metadata)) {
      return AdmissionResponses.allow(request);
    }
    String namespace = request.getNamespace();
    Optional<String> quotaRefusal = boundQuotas.refusal(metadata, namespace);
    if (quotaRefusal.isPresent()) {
      return AdmissionResponses.deny(request, FORBIDDEN, quotaRefusal.get());
    }
    Optional<String> named = adapter.queueName(metadata);
    Optional<String> queue =
        named.or(
            () ->
                useNamespaceDefaultQueue && queues.existsIn(namespace, DEFAULT_QUEUE)
                    ? Optional.of(DEFAULT_QUEUE)
                    : Optional.empty());
    if (queue.isEmpty() && !namespaceManaged) {
      return AdmissionResponses.allow(request);
    }
    List<JsonField> fields = new ArrayList<>();
    if (queue.isPresent() && QueueMembership.queueLabel(metadata).isEmpty()) {
      fields.add(JsonField.of(queue.get(), "metadata", "labels", WellKnown.KUEUE_QUEUE_NAME));
    }
    fields.addAll(adapter.enqueueFields(metadata, clock.instant()));
    List<String> warnings =
        named
            .filter(name -> !queues.exists(name))
            .map(name -> List.of(missingQueueWarning(name)))
            .orElse(List.of());
    return AdmissionResponses.allowPatched(request, JsonFieldEdit.apply(job, fields), warnings);
  }

  /** Refuses what a job its queue holds, or a running one, may not change; {@code job} is the new object. */
  private <T extends HasMetadata> AdmissionReview checkUpdate(
      AdmissionRequest request, ObjectNode job, JobAdapter<T> adapter, boolean namespaceManaged) {
    Optional<String> quotaRefusal =
        boundQuotas.refusalOfChange(
            Json.metadata(json(request.getOldObject())), Json.metadata(job), request.getNamespace());
    if (quotaRefusal.isPresent()) {
      return AdmissionResponses.deny(request, FORBIDDEN, quotaRefusal.get());
    }
    Optional<String> refusal =
        heldJobRefusal(request, job, adapter, namespaceManaged)
            .or(() -> RunningJobChanges.refusal(
                adapter, typed(request.getOldObject(), adapter), typed(request.getObject(), adapter)));
    return refusal.isPresent()
        ? AdmissionResponses.deny(request, 422, refusal.get())
        : AdmissionResponses.allow(request);
  }

  /** Why only koord4j may change a held job so; empty when anyone may, or koord4j writes. */
  private Optional<String> heldJobRefusal(
      AdmissionRequest request, ObjectNode job, JobAdapter<?> adapter, boolean namespaceManaged) {
    boolean byKoord4j =
        request.getUserInfo() != null && koord4jUser.equals(request.getUserInfo().getUsername());
    return byKoord4j
        ? Optional.empty()
        : QueuedJobChanges.refusal(adapter, json(request.getOldObject()), job, namespaceManaged);
  }

  /** A copy of the review's object as JSON, which a review read by the endpoint holds already. */
  private static ObjectNode json(Object object) {
    JsonNode json = object instanceof JsonNode tree ? tree.deepCopy() : Json.MAPPER.valueToTree(object);
    return json instanceof ObjectNode job ? job : Json.MAPPER.createObjectNode();
  }

  /**
   * The object as the adapter's type.
   *
   * @throws IllegalArgumentException when a field cannot be read as the type says
   */
  private static <T extends HasMetadata> T typed(Object object, JobAdapter<T> adapter) {
    return adapter.type().isInstance(object)
        ? adapter.type().cast(object)
        : Json.MAPPER.convertValue(object, adapter.type());
  }

  static String missingQueueWarning(String queue) {
    return "queue \"" + queue + "\" does not exist; the job stays suspended until it is created";
  }
}
