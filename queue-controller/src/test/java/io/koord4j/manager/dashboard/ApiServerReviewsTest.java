package io.koord4j.manager.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.authentication.UserInfoBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ApiServerReviewsTest {
  @Test
  void theTokenIsReviewedForTheApiServersOwnAudiences() {
    assertThat(ApiServerReviews.tokenReview("abc").getSpec().getToken()).isEqualTo("abc");
    assertThat(ApiServerReviews.tokenReview("abc").getSpec().getAudiences()).isNullOrEmpty();
  }

  @Test
  void theUserAsAuthenticatedIsAskedWhetherItMayListQueueUnitsInEveryNamespace() {
    SubjectAccessReviewSpec spec = ApiServerReviews.listingQueueUnits(new UserInfoBuilder()
            .withUsername("alice").withUid("u-1").withGroups("viewers", "system:authenticated")
            .withExtra(Map.of("scopes", List.of("dashboard")))
            .build())
        .getSpec();

    assertThat(spec.getUser()).isEqualTo("alice");
    assertThat(spec.getUid()).isEqualTo("u-1");
    assertThat(spec.getGroups()).containsExactly("viewers", "system:authenticated");
    assertThat(spec.getExtra()).containsEntry("scopes", List.of("dashboard"));
    assertThat(spec.getResourceAttributes().getGroup()).isEqualTo("scheduling.x-k8s.io");
    assertThat(spec.getResourceAttributes().getResource()).isEqualTo("queueunits");
    assertThat(spec.getResourceAttributes().getVerb()).isEqualTo("list");
    assertThat(spec.getResourceAttributes().getNamespace()).as("every namespace").isNullOrEmpty();
  }
}
