package io.koord4j.webhook.registration;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.MatchCondition;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MatchConditionBuilder;
import io.koord4j.jobs.JobAdapter;
import io.koord4j.jobs.JsonField;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The match conditions of the job webhooks: which writes of a queued job the API server sends.
 * Creates always. Updates only when the webhook may refuse them:
 *
 * <ul>
 *   <li>of a job that runs both before and after the update (a running gang keeps its queue and
 *       size), for jobs queued by their labels;
 *   <li>of a suspended job, by anyone but koord4j, that may let it go: a suspension field stops
 *       holding its suspended value, or its labels or owner references change (they decide its
 *       queue and whether its kind {@linkplain JobAdapter#isSkipped skips} it). Without this, a
 *       tenant could resume a held job, or take it out of its queue first.
 * </ul>
 *
 * The rest, koord4j's own resume of an admitted job above all, are allowed unread, so the API
 * server does not call out for them. The handler decides alone; these only narrow what it sees.
 *
 * <p>A job is suspended when any of its kind's {@linkplain JobAdapter#suspensionFields suspension
 * fields} holds its suspended value, as {@link JobAdapter#isSuspended} reads them. Pure.
 */
public final class JobUpdates {
  static final String LABELLED_JOBS = "creates-running-updates-and-releases";
  static final String MANAGED_NAMESPACE_JOBS = "creates-and-releases";
  private static final String NOT_AN_UPDATE = "request.operation != 'UPDATE'";

  private JobUpdates() {}

  /** For jobs queued by their labels. */
  public static MatchCondition labelledJobs(List<JobAdapter<?>> adapters, String koord4jUser) {
    return condition(LABELLED_JOBS, labelledJobsExpression(adapters, koord4jUser));
  }

  /** For unlabelled jobs of managed namespaces: they have no queue a running job must keep. */
  public static MatchCondition managedNamespaceJobs(List<JobAdapter<?>> adapters, String koord4jUser) {
    return condition(MANAGED_NAMESPACE_JOBS, managedNamespaceJobsExpression(adapters, koord4jUser));
  }

  static String labelledJobsExpression(List<JobAdapter<?>> adapters, String koord4jUser) {
    return NOT_AN_UPDATE + " || " + runningThroughout(adapters) + " || " + mayRelease(adapters, koord4jUser);
  }

  static String managedNamespaceJobsExpression(List<JobAdapter<?>> adapters, String koord4jUser) {
    return NOT_AN_UPDATE + " || " + mayRelease(adapters, koord4jUser);
  }

  private static MatchCondition condition(String name, String expression) {
    return new MatchConditionBuilder().withName(name).withExpression(expression).build();
  }

  /** CEL: the job is suspended neither before nor after the update. */
  private static String runningThroughout(List<JobAdapter<?>> adapters) {
    return "!(" + suspended(adapters, "oldObject") + " || " + suspended(adapters, "object") + ")";
  }

  /**
   * CEL: anyone but koord4j writes a suspended job in a way that may let it go. Suspension fields
   * are read here without the kind, which only sends the webhook a few more updates: the handler
   * reads the job's own kind.
   */
  private static String mayRelease(List<JobAdapter<?>> adapters, String koord4jUser) {
    List<JsonField> fields = everySuspensionField(adapters);
    return "(request.userInfo.username != " + literal(koord4jUser) + " && ("
        + stopsHolding(fields) + " || ((" + anyHolds(fields, "oldObject") + ") && ("
        + changed("labels", "{}") + " || " + changed("ownerReferences", "[]") + "))))";
  }

  private static String suspended(List<JobAdapter<?>> adapters, String object) {
    return adapters.stream()
        .map(adapter -> "(" + isKind(adapter) + " && (" + anyHolds(adapter.suspensionFields(true), object) + "))")
        .collect(Collectors.joining(" || ", "(", ")"));
  }

  /** The suspension fields of every kind, each once. */
  private static List<JsonField> everySuspensionField(List<JobAdapter<?>> adapters) {
    return adapters.stream().flatMap(adapter -> adapter.suspensionFields(true).stream()).distinct().toList();
  }

  /** CEL: one of the fields held before the update and does not after it. */
  private static String stopsHolding(List<JsonField> fields) {
    return fields.stream()
        .filter(field -> field.value() != null)
        .map(field -> "(" + holds(field, "oldObject") + " && !" + holds(field, "object") + ")")
        .collect(Collectors.joining(" || ", "(", ")"));
  }

  private static String isKind(JobAdapter<?> adapter) {
    String apiVersion = adapter.apiVersion();
    int slash = apiVersion.indexOf('/');
    String group = slash < 0 ? "" : apiVersion.substring(0, slash);
    return "request.kind.group == " + literal(group) + " && request.kind.kind == " + literal(adapter.kind());
  }

  private static String anyHolds(List<JsonField> fields, String object) {
    return fields.stream()
        .filter(field -> field.value() != null)
        .map(field -> holds(field, object))
        .collect(Collectors.joining(" || "));
  }

  /** Each step is tested before it is read, so a job without the field is not suspended by it. */
  private static String holds(JsonField field, String object) {
    StringBuilder tests = new StringBuilder();
    String path = object;
    for (String property : field.path()) {
      boolean identifier = JsonField.isIdentifier(property);
      tests.append(identifier ? "has(" + path + "." + property + ")" : literal(property) + " in " + path)
          .append(" && ");
      path = identifier ? path + "." + property : path + "[" + literal(property) + "]";
    }
    String value = field.value().isTextual() ? literal(field.value().asText()) : field.value().toString();
    return "(" + tests + path + " == " + value + ")";
  }

  /** CEL: the metadata field differs before and after the update, a missing one read as empty. */
  private static String changed(String metadataField, String empty) {
    return orEmpty("oldObject", metadataField, empty) + " != " + orEmpty("object", metadataField, empty);
  }

  private static String orEmpty(String object, String metadataField, String empty) {
    String field = object + ".metadata." + metadataField;
    return "(has(" + field + ") ? " + field + " : " + empty + ")";
  }

  private static String literal(String text) {
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }
}
