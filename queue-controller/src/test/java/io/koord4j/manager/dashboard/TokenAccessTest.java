package io.koord4j.manager.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class TokenAccessTest {
  private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
  private final FakeReviews reviews = new FakeReviews();
  private final TokenAccess access = new TokenAccess(reviews, now::get);

  @Test
  void aRequestWithoutABearerTokenIsNotReviewed() {
    assertThat(access.check(Optional.empty())).isEqualTo(TokenAccess.Verdict.NO_TOKEN);
    assertThat(access.check(Optional.of("Basic YWxpY2U6c2VjcmV0"))).isEqualTo(TokenAccess.Verdict.NO_TOKEN);
    assertThat(access.check(Optional.of("Bearer "))).isEqualTo(TokenAccess.Verdict.NO_TOKEN);
    assertThat(reviews.authentications).hasValue(0);
  }

  @Test
  void aTokenTheApiServerDoesNotAcceptIsBadAndItsUserIsNeverAuthorized() {
    assertThat(access.check(bearer("made-up"))).isEqualTo(TokenAccess.Verdict.BAD_TOKEN);
    assertThat(reviews.authorizations).hasValue(0);
  }

  @Test
  void aValidTokenWhoseUserMayNotListQueueUnitsIsNotAllowed() {
    assertThat(access.check(bearer(FakeReviews.WITHOUT_RIGHTS))).isEqualTo(TokenAccess.Verdict.NOT_ALLOWED);
  }

  @Test
  void aValidTokenWhoseUserMayListQueueUnitsIsAllowedWhateverTheSchemesCase() {
    assertThat(access.check(bearer(FakeReviews.VIEWER))).isEqualTo(TokenAccess.Verdict.ALLOWED);
    assertThat(access.check(Optional.of("bearer " + FakeReviews.VIEWER))).isEqualTo(TokenAccess.Verdict.ALLOWED);
  }

  @Test
  void verdictsAreRememberedForAWhileThenReviewedAgain() {
    access.check(bearer(FakeReviews.VIEWER));
    access.check(bearer("made-up"));
    now.set(now.get().plus(TokenAccess.REMEMBERED_FOR).minusSeconds(1));

    assertThat(access.check(bearer(FakeReviews.VIEWER))).isEqualTo(TokenAccess.Verdict.ALLOWED);
    assertThat(access.check(bearer("made-up"))).isEqualTo(TokenAccess.Verdict.BAD_TOKEN);
    assertThat(reviews.authentications).hasValue(2);
    assertThat(reviews.authorizations).hasValue(1);

    now.set(now.get().plus(Duration.ofSeconds(1)));
    access.check(bearer(FakeReviews.VIEWER));
    assertThat(reviews.authentications).hasValue(3);
    assertThat(reviews.authorizations).hasValue(2);
  }

  @Test
  void aFailedReviewIsNotRemembered() {
    AtomicBoolean down = new AtomicBoolean(true);
    TokenAccess flaky = new TokenAccess(new FakeReviews() {
      @Override
      public Optional<UserInfo> authenticate(String token) {
        if (down.get()) {
          throw new KubernetesClientException("the API server is restarting");
        }
        return super.authenticate(token);
      }
    }, now::get);

    assertThatThrownBy(() -> flaky.check(bearer(FakeReviews.VIEWER))).hasMessageContaining("restarting");
    down.set(false);
    assertThat(flaky.check(bearer(FakeReviews.VIEWER))).isEqualTo(TokenAccess.Verdict.ALLOWED);
  }

  @Test
  void theLeastRecentlyUsedTokenIsForgottenBeyondTheLimit() {
    access.check(bearer(FakeReviews.VIEWER));
    for (int i = 0; i < TokenAccess.REMEMBERED; i++) {
      access.check(bearer("made-up-" + i));
    }
    int reviewed = reviews.authentications.get();

    access.check(bearer(FakeReviews.VIEWER));

    assertThat(reviews.authentications).hasValue(reviewed + 1);
  }

  private static Optional<String> bearer(String token) {
    return Optional.of("Bearer " + token);
  }
}
