package io.koord4j.webhook.http;

import io.koord4j.webhook.admission.AdmissionHandler;

/**
 * One admission path: its handler, and what the API server is told when the handler fails or
 * does not answer in time, which must match the path's registered failurePolicy.
 *
 * @param failsOpen failurePolicy Ignore: the object is allowed (with a warning); else it is
 *     refused
 */
public record AdmissionRoute(AdmissionHandler handler, boolean failsOpen) {

  public static AdmissionRoute failingOpen(AdmissionHandler handler) {
    return new AdmissionRoute(handler, true);
  }

  public static AdmissionRoute failingClosed(AdmissionHandler handler) {
    return new AdmissionRoute(handler, false);
  }
}
