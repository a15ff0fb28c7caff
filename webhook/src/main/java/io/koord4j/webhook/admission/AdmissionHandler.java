package io.koord4j.webhook.admission;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;

/**
 * One admission decision: a pure function from the API server's review to the answer. Handlers
 * make no client calls of their own; what they need to know about the cluster is passed in as
 * lookup functions, so they are tested on plain reviews.
 *
 * <p>The request's {@code object} and {@code oldObject} are JSON trees ({@code JsonNode}) as the
 * endpoint reads them, or what a test puts there; a handler reads them as the type it needs.
 *
 * <p>The returned review carries a response whose uid is the request's uid.
 */
@FunctionalInterface
public interface AdmissionHandler {
  AdmissionReview handle(AdmissionReview review);
}
