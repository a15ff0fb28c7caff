package io.koord4j.manager;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.koord4j.probes.NativeTlsClientFactory;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * Stops every request of the controllers' client that would change the cluster once this replica
 * may no longer hold the leader Lease, asked as the request leaves for the API server. A replica
 * paused between deciding and sending (a long GC, SIGSTOP) wakes with writes under way (an
 * admission, a job's resume) decided on a state its successor has since changed, and with
 * informers still catching up; none of them may land. Reads and watches go on.
 */
final class FencedWrites implements Interceptor {
  private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");

  private final BooleanSupplier leading;

  private FencedWrites(BooleanSupplier leading) {
    this.leading = leading;
  }

  /**
   * The controllers' client: every write fenced by {@code leading}, and sent once. The client
   * would otherwise send a write again after an I/O error or a 5xx, for up to 20 seconds, and a
   * fence refusing such a late attempt would leave its caller waiting forever (fabric8 drops what
   * a retry throws); the controllers retry failed work themselves.
   */
  static KubernetesClient client(Config config, BooleanSupplier leading) {
    config.setRequestRetryBackoffLimit(0);
    return NativeTlsClientFactory.client(
        config, http -> http.addOrReplaceInterceptor("lease-fence", new FencedWrites(leading)));
  }

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    if (WRITES.contains(request.method()) && !leading.getAsBoolean()) {
      throw new KubernetesClientException(String.format(
          "%s %s not sent: this replica may no longer hold the leader Lease",
          request.method(), request.uri().getPath()));
    }
  }
}
