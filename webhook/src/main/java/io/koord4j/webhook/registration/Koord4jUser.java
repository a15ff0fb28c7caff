package io.koord4j.webhook.registration;

import io.fabric8.kubernetes.api.model.authentication.SelfSubjectReview;
import io.fabric8.kubernetes.api.model.authentication.SelfSubjectReviewStatus;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Optional;

/**
 * Who koord4j is to the API server: the user its client is authenticated as, asked at start with a
 * SelfSubjectReview ({@code authentication.k8s.io/v1}, Kubernetes 1.28 and later, which every
 * authenticated user may create). The manager resumes admitted jobs as this user, so it is the one
 * user whose updates may release a job its queue holds. A webhook run alone must use the
 * manager's account.
 */
public final class Koord4jUser {
  private Koord4jUser() {}

  /**
   * @throws IllegalStateException when the API server names no user: the webhook would then
   *     refuse the manager's own resumes
   */
  public static String of(KubernetesClient client) {
    SelfSubjectReview review =
        client.authentication().v1().selfSubjectReviews().create(new SelfSubjectReview());
    return Optional.ofNullable(review.getStatus())
        .map(SelfSubjectReviewStatus::getUserInfo)
        .map(UserInfo::getUsername)
        .filter(username -> !username.isBlank())
        .orElseThrow(() -> new IllegalStateException(
            "the API server's SelfSubjectReview names no user for koord4j's client"));
  }
}
