package io.koord4j.manager.dashboard;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewStatus;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.api.queue.QueueUnit;
import java.util.Optional;

/**
 * {@link TokenAccess}'s reviews, asked of the API server with the manager's own account, which
 * needs {@code create} on {@code tokenreviews} and {@code subjectaccessreviews}.
 */
final class ApiServerReviews implements TokenAccess.Reviews {
  private final KubernetesClient client;

  ApiServerReviews(KubernetesClient client) {
    this.client = client;
  }

  @Override
  public Optional<UserInfo> authenticate(String token) {
    TokenReviewStatus status = client.authentication().v1().tokenReviews().create(tokenReview(token)).getStatus();
    return status != null && Boolean.TRUE.equals(status.getAuthenticated())
        ? Optional.ofNullable(status.getUser())
        : Optional.empty();
  }

  @Override
  public boolean mayListQueueUnits(UserInfo user) {
    SubjectAccessReviewStatus status =
        client.authorization().v1().subjectAccessReview().create(listingQueueUnits(user)).getStatus();
    return status != null && Boolean.TRUE.equals(status.getAllowed());
  }

  /** The review of a token for the API server's own audiences. */
  static TokenReview tokenReview(String token) {
    return new TokenReviewBuilder().withNewSpec().withToken(token).endSpec().build();
  }

  /** Whether {@code user}, with its groups and extra attributes, may list QueueUnits in every namespace. */
  static SubjectAccessReview listingQueueUnits(UserInfo user) {
    return new SubjectAccessReviewBuilder()
        .withNewSpec()
        .withUser(user.getUsername())
        .withUid(user.getUid())
        .withGroups(user.getGroups())
        .withExtra(user.getExtra())
        .withNewResourceAttributes()
        .withGroup(HasMetadata.getGroup(QueueUnit.class))
        .withResource(HasMetadata.getPlural(QueueUnit.class))
        .withVerb("list")
        .endResourceAttributes()
        .endSpec()
        .build();
  }
}
