package io.koord4j.webhook.registration;

import static org.assertj.core.api.Assertions.assertThat;

import io.koord4j.jobs.JobAdapters;
import org.junit.jupiter.api.Test;

/**
 * The match conditions as text (no CEL library is on the classpath): what they send is checked on
 * the API server by the webhook ITs and TenantAbuseIT.
 */
class JobUpdatesTest {
  private static final String KOORD4J = "system:serviceaccount:koord4j-system:koord4j-manager";
  private final String labelled = JobUpdates.labelledJobsExpression(JobAdapters.builtIn().all(), KOORD4J);
  private final String managed = JobUpdates.managedNamespaceJobsExpression(JobAdapters.builtIn().all(), KOORD4J);

  @Test
  void createsAreAlwaysSent() {
    assertThat(labelled).startsWith("request.operation != 'UPDATE' || ");
    assertThat(managed).startsWith("request.operation != 'UPDATE' || ");
  }

  @Test
  void aBatchJobIsSuspendedBySpecSuspendOnEitherSideOfTheUpdate() {
    assertThat(labelled)
        .contains("request.kind.group == 'batch' && request.kind.kind == 'Job' && ((has(oldObject.spec)"
            + " && has(oldObject.spec.suspend) && oldObject.spec.suspend == true))")
        .contains("(has(object.spec) && has(object.spec.suspend) && object.spec.suspend == true)");
  }

  @Test
  void anAnnotationKeyThatIsNoIdentifierIsTestedByIndex() {
    assertThat(labelled).contains(
        "has(object.metadata.annotations) && 'scheduling.x-k8s.io/suspend' in object.metadata.annotations"
            + " && object.metadata.annotations['scheduling.x-k8s.io/suspend'] == 'true'");
  }

  @Test
  void onlyLabelledJobsAreCheckedWhileTheyRun() {
    assertThat(labelled).contains(" || !(((request.kind.group == 'batch'");
    assertThat(managed).doesNotContain("request.kind");
  }

  @Test
  void koord4jsOwnUpdatesOfAHeldJobAreNotSent() {
    assertThat(labelled).contains(" || (request.userInfo.username != '" + KOORD4J + "' && (");
    assertThat(managed).contains(" || (request.userInfo.username != '" + KOORD4J + "' && (");
  }

  @Test
  void everySuspensionFieldThatStopsHoldingIsSentOnce() {
    String batchSuspendStops = "((has(oldObject.spec) && has(oldObject.spec.suspend) && oldObject.spec.suspend == true)"
        + " && !(has(object.spec) && has(object.spec.suspend) && object.spec.suspend == true))";
    String runPolicyStops = "((has(oldObject.spec) && has(oldObject.spec.runPolicy)"
        + " && has(oldObject.spec.runPolicy.suspend) && oldObject.spec.runPolicy.suspend == true)"
        + " && !(has(object.spec) && has(object.spec.runPolicy)";
    String sparkAnnotationStops = "'scheduling.x-k8s.io/suspend' in oldObject.metadata.annotations"
        + " && oldObject.metadata.annotations['scheduling.x-k8s.io/suspend'] == 'true')"
        + " && !(has(object.metadata) && has(object.metadata.annotations)";

    assertThat(managed).containsOnlyOnce(batchSuspendStops).contains(runPolicyStops, sparkAnnotationStops);
  }

  @Test
  void labelsAndOwnersOfASuspendedJobMayNotChangeUnseen() {
    assertThat(managed)
        .contains("|| (((has(oldObject.spec) && has(oldObject.spec.suspend) && oldObject.spec.suspend == true)"
            + " || (has(oldObject.spec) && has(oldObject.spec.runPolicy)")
        .contains("(has(oldObject.metadata.labels) ? oldObject.metadata.labels : {})"
            + " != (has(object.metadata.labels) ? object.metadata.labels : {})")
        .contains("(has(oldObject.metadata.ownerReferences) ? oldObject.metadata.ownerReferences : [])"
            + " != (has(object.metadata.ownerReferences) ? object.metadata.ownerReferences : [])");
  }

  @Test
  void aUserNameIsQuotedAsACelString() {
    assertThat(JobUpdates.managedNamespaceJobsExpression(JobAdapters.builtIn().all(), "o'brien\\x"))
        .contains("request.userInfo.username != 'o\\'brien\\\\x'");
  }

  @Test
  void parenthesesAndQuotesBalance() {
    for (String expression : new String[] {labelled, managed}) {
      String outsideQuotes = expression.replaceAll("'(?:[^'\\\\]|\\\\.)*'", "''");
      assertThat(outsideQuotes.chars().filter(c -> c == '(').count())
          .isEqualTo(outsideQuotes.chars().filter(c -> c == ')').count());
      assertThat(outsideQuotes.chars().filter(c -> c == '\'').count() % 2).isZero();
    }
  }
}
