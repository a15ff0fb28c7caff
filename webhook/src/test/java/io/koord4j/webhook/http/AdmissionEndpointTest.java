package io.koord4j.webhook.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.koord4j.webhook.admission.AdmissionHandler;
import io.koord4j.webhook.admission.AdmissionResponses;
import io.koord4j.webhook.admission.Json;
import io.koord4j.webhook.admission.Reviews;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AdmissionEndpointTest {
  private static final byte[] REVIEW = json(Reviews.create(Reviews.job("ns", Map.of(), Map.of())));

  @Test
  void badInputGets400WithAMessage() {
    assertThat(reply("not json").status()).isEqualTo(400);
    assertThat(reply("not json").body()).contains("not JSON");
    assertThat(reply("{} {}").status()).isEqualTo(400);
    assertThat(reply("").status()).isEqualTo(400);
    assertThat(reply("[1]").body()).contains("not a JSON object");
    assertThat(reply("{\"apiVersion\":\"v1\",\"kind\":\"Pod\"}").body()).contains("AdmissionReview");
    assertThat(reply("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\","
        + "\"request\":{}}").body()).contains("request.uid");
    assertThat(reply("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\","
        + "\"request\":{\"uid\":\"u\",\"userInfo\":\"me\"}}").body()).contains("malformed");
  }

  @Test
  void failingHandlerOfAFailClosedRouteRefusesTheObjectInsteadOfFailingTheCall() throws Exception {
    HttpReply reply = reply(review -> { throw new IllegalStateException("bug"); }, REVIEW);

    assertThat(reply.status()).isEqualTo(200);
    AdmissionReview answer = Json.MAPPER.readValue(reply.body(), AdmissionReview.class);
    assertThat(answer.getResponse().getAllowed()).isFalse();
    assertThat(answer.getResponse().getStatus().getCode()).isEqualTo(500);
  }

  @Test
  void answerCarriesTheRequestUid() throws Exception {
    HttpReply reply = reply(review -> AdmissionResponses.allow(review.getRequest()), REVIEW);

    AdmissionReview answer = Json.MAPPER.readValue(reply.body(), AdmissionReview.class);
    assertThat(reply.status()).isEqualTo(200);
    assertThat(answer.getResponse().getUid())
        .isEqualTo(Json.MAPPER.readTree(REVIEW).at("/request/uid").asText());
    assertThat(answer.getApiVersion()).isEqualTo("admission.k8s.io/v1");
  }

  private static HttpReply reply(String body) {
    return reply(review -> AdmissionResponses.allow(review.getRequest()), body.getBytes(StandardCharsets.UTF_8));
  }

  /** Through a fail-closed route. */
  private static HttpReply reply(AdmissionHandler handler, byte[] body) {
    return AdmissionEndpoint.reply(AdmissionRoute.failingClosed(handler), body, request -> {}, () -> {});
  }

  private static byte[] json(Object value) {
    try {
      return Json.MAPPER.writeValueAsBytes(value);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
