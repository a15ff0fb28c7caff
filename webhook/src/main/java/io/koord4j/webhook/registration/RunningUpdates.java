package io.koord4j.webhook.registration;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.MatchCondition;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MatchConditionBuilder;
import io.koord4j.jobs.JobAdapter;
import io.koord4j.jobs.JsonField;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The match condition that sends a queued job's update to the webhook only when the job runs
 * both before and after it: the only updates the webhook may refuse (a running gang keeps its
 * queue and size). The rest, the manager's resume of an admitted job above all, are allowed
 * unread, so the API server does not call out for them.
 *
 * <p>A job is suspended when any of its kind's {@linkplain JobAdapter#suspensionFields suspension
 * fields} holds its suspended value, as {@link JobAdapter#isSuspended} reads them. Pure.
 */
public final class RunningUpdates {
  static final String NAME = "creates-and-updates-of-running-jobs";
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private RunningUpdates() {}

  public static MatchCondition condition(List<JobAdapter<?>> adapters) {
    return new MatchConditionBuilder()
        .withName(NAME)
        .withExpression(expression(adapters))
        .build();
  }

  /** CEL: a create, or an update of a job suspended neither before nor after it. */
  static String expression(List<JobAdapter<?>> adapters) {
    return "request.operation != 'UPDATE' || !(" + suspended(adapters, "oldObject") + " || "
        + suspended(adapters, "object") + ")";
  }

  private static String suspended(List<JobAdapter<?>> adapters, String object) {
    return adapters.stream()
        .map(adapter -> "(" + isKind(adapter) + " && (" + anyHolds(adapter.suspensionFields(true), object) + "))")
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
      boolean identifier = IDENTIFIER.matcher(property).matches();
      tests.append(identifier ? "has(" + path + "." + property + ")" : literal(property) + " in " + path)
          .append(" && ");
      path = identifier ? path + "." + property : path + "[" + literal(property) + "]";
    }
    String value = field.value().isTextual() ? literal(field.value().asText()) : field.value().toString();
    return "(" + tests + path + " == " + value + ")";
  }

  private static String literal(String text) {
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }
}
