package io.koord4j.manager.dashboard;

import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.api.model.authentication.UserInfoBuilder;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The API server's reviews for two known tokens: {@link #VIEWER}'s user may list QueueUnits,
 * {@link #WITHOUT_RIGHTS}'s may not; every other token is refused. It counts the reviews.
 */
class FakeReviews implements TokenAccess.Reviews {
  static final String VIEWER = "viewer-token";
  static final String WITHOUT_RIGHTS = "tenant-token";

  private static final Map<String, UserInfo> USERS = Map.of(
      VIEWER, new UserInfoBuilder().withUsername("alice").withGroups(List.of("dashboard-viewers")).build(),
      WITHOUT_RIGHTS, new UserInfoBuilder().withUsername("system:serviceaccount:team-a:trainer").build());

  final AtomicInteger authentications = new AtomicInteger();
  final AtomicInteger authorizations = new AtomicInteger();

  @Override
  public Optional<UserInfo> authenticate(String token) {
    authentications.incrementAndGet();
    return Optional.ofNullable(USERS.get(token));
  }

  @Override
  public boolean mayListQueueUnits(UserInfo user) {
    authorizations.incrementAndGet();
    return user.getGroups() != null && user.getGroups().contains("dashboard-viewers");
  }
}
