package io.koord4j.webhook.http;

/** What the server sends back: a status code, a content type and a body. */
public record HttpReply(int status, String contentType, String body) {
  static HttpReply json(String body) {
    return new HttpReply(200, "application/json", body);
  }

  static HttpReply badRequest(String message) {
    return new HttpReply(400, "text/plain; charset=utf-8", message + "\n");
  }
}
