package io.koord4j.webhook.registration;

import static org.assertj.core.api.Assertions.assertThat;

import io.koord4j.jobs.JobAdapters;
import org.junit.jupiter.api.Test;

class RunningUpdatesTest {
  private final String expression = RunningUpdates.expression(JobAdapters.builtIn().all());

  @Test
  void createsAreAlwaysSent() {
    assertThat(expression).startsWith("request.operation != 'UPDATE' || ");
  }

  @Test
  void aBatchJobIsSuspendedBySpecSuspendOnEitherSideOfTheUpdate() {
    assertThat(expression)
        .contains("request.kind.group == 'batch' && request.kind.kind == 'Job' && ((has(oldObject.spec)"
            + " && has(oldObject.spec.suspend) && oldObject.spec.suspend == true))")
        .contains("(has(object.spec) && has(object.spec.suspend) && object.spec.suspend == true)");
  }

  @Test
  void anAnnotationKeyThatIsNoIdentifierIsTestedByIndex() {
    assertThat(expression).contains(
        "has(object.metadata.annotations) && 'scheduling.x-k8s.io/suspend' in object.metadata.annotations"
            + " && object.metadata.annotations['scheduling.x-k8s.io/suspend'] == 'true'");
  }
}
