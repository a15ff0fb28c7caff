package io.koord4j.kueue;

import static io.koord4j.kueue.KueueFixtures.NOW;
import static org.assertj.core.api.Assertions.assertThat;

import io.koord4j.api.kueue.AdmissionCheckState;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class CheckTransitionTest {
  private static final CheckSettings SETTINGS = new CheckSettings(Duration.ofSeconds(120), 30);
  private static final String EARLIER = "2025-01-01T11:59:00Z";

  @Test
  void sameStateKeepsItsTransitionTimeEvenWhenTheMessageChanges() {
    AdmissionCheckState next = CheckTransition.next(
        entry(AdmissionCheckState.PENDING, EARLIER), GangVerdict.waiting("node a: no GPU"), SETTINGS, NOW);

    assertThat(next.getState()).isEqualTo(AdmissionCheckState.PENDING);
    assertThat(next.getLastTransitionTime()).isEqualTo(EARLIER);
    assertThat(CheckTransition.changes(entry(AdmissionCheckState.PENDING, EARLIER), next)).isTrue();
  }

  @Test
  void newStateTakesTheCurrentTimeInWholeSeconds() {
    AdmissionCheckState next = CheckTransition.next(
        entry(AdmissionCheckState.PENDING, EARLIER), GangVerdict.fits(List.of(), null, List.of()), SETTINGS,
        NOW.plusMillis(750));

    assertThat(next.getState()).isEqualTo(AdmissionCheckState.READY);
    assertThat(next.getLastTransitionTime()).isEqualTo("2025-01-01T12:00:00Z");
  }

  @Test
  void unreadableTransitionTimeIsReplacedAndStartsTheWait() {
    AdmissionCheckState next = CheckTransition.next(
        entry(AdmissionCheckState.PENDING, null), GangVerdict.waiting("full"), SETTINGS, NOW);

    assertThat(next.getLastTransitionTime()).isEqualTo(NOW.toString());
    assertThat(CheckTransition.retryAt(next, SETTINGS, NOW)).isEqualTo(NOW.plusSeconds(120));
  }

  @Test
  void retryComesOnlyOnceTheWaitIsOver() {
    AdmissionCheckState pending = entry(AdmissionCheckState.PENDING, EARLIER);

    assertThat(CheckTransition.next(pending, GangVerdict.waiting("full"), SETTINGS, NOW.plusSeconds(59)).getState())
        .isEqualTo(AdmissionCheckState.PENDING);
    assertThat(CheckTransition.next(pending, GangVerdict.waiting("full"), SETTINGS, NOW.plusSeconds(60)).getState())
        .isEqualTo(AdmissionCheckState.RETRY);
  }

  @Test
  void settledStatesAreLeftToKueue() {
    for (String state : List.of(AdmissionCheckState.READY, AdmissionCheckState.RETRY, AdmissionCheckState.REJECTED)) {
      AdmissionCheckState current = entry(state, EARLIER);
      AdmissionCheckState next = CheckTransition.next(current, GangVerdict.waiting("full"), SETTINGS, NOW);

      assertThat(next.getState()).isEqualTo(state);
      assertThat(CheckTransition.changes(current, next)).isFalse();
    }
  }

  private static AdmissionCheckState entry(String state, String since) {
    AdmissionCheckState entry = new AdmissionCheckState();
    entry.setName("gang-check");
    entry.setState(state);
    entry.setMessage("");
    entry.setLastTransitionTime(since);
    return entry;
  }
}
