package io.koord4j.webhook.registration;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.MatchCondition;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MatchConditionBuilder;
import io.koord4j.api.WellKnown;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The match condition that keeps the manager's published figures of an ElasticQuota (its
 * {@code runtime} and {@code request} annotations) from the quota webhooks: neither the defaults
 * nor the tree rules read them, and the manager writes them about once a second per quota while
 * jobs come and go, so each write would wait for two calls out. Every create and delete, and every
 * update that changes anything else (spec, labels, any other annotation), is still sent. Pure.
 */
public final class QuotaFigureUpdates {
  static final String NAME = "not-only-published-figures";
  private static final String FIGURES =
      Stream.of(WellKnown.QUOTA_RUNTIME, WellKnown.QUOTA_REQUEST)
          .map(key -> "'" + key + "'")
          .collect(Collectors.joining(", ", "[", "]"));

  private QuotaFigureUpdates() {}

  public static MatchCondition condition() {
    return new MatchConditionBuilder().withName(NAME).withExpression(expression()).build();
  }

  /** CEL: not an update, or one that changes more than the figures. */
  static String expression() {
    String after = annotations("object");
    String before = annotations("oldObject");
    return "request.operation != 'UPDATE'"
        + " || !has(object.spec) || !has(oldObject.spec) || object.spec != oldObject.spec"
        + " || " + labels("object") + " != " + labels("oldObject")
        + " || " + after + ".exists(k, !(k in " + FIGURES + ") && (!(k in " + before + ") || "
        + before + "[k] != " + after + "[k]))"
        + " || " + before + ".exists(k, !(k in " + FIGURES + ") && !(k in " + after + "))";
  }

  private static String labels(String object) {
    return "(has(" + object + ".metadata.labels) ? " + object + ".metadata.labels : {})";
  }

  private static String annotations(String object) {
    return "(has(" + object + ".metadata.annotations) ? " + object + ".metadata.annotations : {})";
  }
}
