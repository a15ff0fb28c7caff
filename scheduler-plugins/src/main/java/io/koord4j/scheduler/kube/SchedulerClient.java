package io.koord4j.scheduler.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import io.koord4j.api.ClientConfig;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.client.WebClientOptions;

/**
 * The scheduler's API client: KUBECONFIG or the in-cluster service account, speaking HTTP/2 as
 * kube-scheduler's client does. Over HTTP/1.1 every binding in flight needs a connection of its
 * own, and each new connection costs a TLS handshake on both sides; HTTP/2 carries the watches and
 * all bindings as streams of one connection. A server without HTTP/2 gets HTTP/1.1 (ALPN).
 */
public final class SchedulerClient {
  private SchedulerClient() {}

  public static KubernetesClient create() {
    return new KubernetesClientBuilder()
        .withConfig(ClientConfig.fromEnvironment())
        .withHttpClientFactory(
            new VertxHttpClientFactory() {
              @Override
              protected void additionalConfig(WebClientOptions options) {
                options.setProtocolVersion(HttpVersion.HTTP_2).setUseAlpn(true);
              }
            })
        .build();
  }
}
