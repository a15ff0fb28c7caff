package io.koord4j.probes;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientBuilder;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import io.koord4j.api.ClientConfig;
import io.koord4j.api.ClientSerialization;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.net.KeyCertOptions;
import io.vertx.core.net.TrustOptions;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Consumer;
import javax.net.ssl.KeyManager;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509KeyManager;

/**
 * fabric8's vert.x client with TLS in {@link NativeTls#engine()}: BoringSSL where it loads.
 *
 * <p>fabric8 7.5 builds vert.x's TLS engine from a JDK {@code SSLContext} and never applies {@link
 * VertxHttpClientFactory#additionalConfig} (fabric8 issue 7252). So the engine is set where fabric8
 * hands its options to vert.x: its builder gets a {@link Vertx} whose {@code createHttpClient}
 * swaps the engine first, keeping the key and trust managers fabric8 derived from the
 * configuration. All clients of a process share one vert.x instance with daemon event loops.
 */
public final class NativeTlsClientFactory extends VertxHttpClientFactory {

  /**
   * A client on {@link ClientConfig#fromEnvironment()} with this factory's TLS, reading objects
   * without their managedFields ({@link ClientSerialization}).
   */
  public static KubernetesClient client() {
    prepareTransport();
    return client(ClientConfig.fromEnvironment(), http -> {});
  }

  /**
   * Builds the shared vert.x and loads the native TLS library on a thread of their own, while the
   * caller reads its configuration: together the two are most of a process's time before its first
   * request, and a new leader lists the cluster only after that request.
   */
  private static void prepareTransport() {
    Thread preparation =
        new Thread(
            () -> {
              NativeTls.engine();
              SharedVertx.build();
            },
            "client-transport");
    preparation.setDaemon(true);
    preparation.start();
  }

  /** As {@link #client()} on {@code config}, its HTTP client first given to {@code httpClient} (interceptors). */
  public static KubernetesClient client(Config config, Consumer<HttpClient.Builder> httpClient) {
    return new KubernetesClientBuilder()
        .withConfig(config)
        .withKubernetesSerialization(ClientSerialization.withoutManagedFields())
        .withHttpClientFactory(new NativeTlsClientFactory())
        .withHttpClientBuilderConsumer(httpClient)
        .build();
  }

  @Override
  public VertxHttpClientBuilder<VertxHttpClientFactory> newBuilder() {
    return new Builder(this);
  }

  /** The engine of {@link NativeTls#engine()} with the builder's key and trust managers. */
  private static void useEngine(HttpClientOptions options, KeyManager[] keys, TrustManager[] trust) {
    if (!options.isSsl()) {
      return;
    }
    options.setSslEngineOptions(NativeTls.engine());
    firstOf(keys, X509KeyManager.class).map(KeyCertOptions::wrap).ifPresent(options::setKeyCertOptions);
    firstOf(trust, TrustManager.class).map(TrustOptions::wrap).ifPresent(options::setTrustOptions);
  }

  private static <T> Optional<T> firstOf(Object[] managers, Class<T> type) {
    return managers == null
        ? Optional.empty()
        : Arrays.stream(managers).filter(type::isInstance).map(type::cast).findFirst();
  }

  private static final class Builder extends VertxHttpClientBuilder<VertxHttpClientFactory> {
    private final NativeTlsClientFactory factory;

    Builder(NativeTlsClientFactory factory) {
      this(factory, new EngineSwap());
    }

    private Builder(NativeTlsClientFactory factory, EngineSwap swap) {
      super(factory, swap.vertx());
      this.factory = factory;
      swap.builder = this;
    }

    @Override
    protected VertxHttpClientBuilder<VertxHttpClientFactory> newInstance(VertxHttpClientFactory ignored) {
      return new Builder(factory);
    }
  }

  /** The shared vert.x as one builder sees it: {@code createHttpClient} first sets the engine. */
  private static final class EngineSwap implements InvocationHandler {
    /** The builder given {@link #vertx()}, set once it is constructed: its managers are read then. */
    private Builder builder;

    Vertx vertx() {
      return (Vertx) Proxy.newProxyInstance(Vertx.class.getClassLoader(), new Class<?>[] {Vertx.class}, this);
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      if (method.getName().equals("createHttpClient")
          && args != null
          && args.length > 0
          && args[0] instanceof HttpClientOptions options) {
        useEngine(options, builder.getKeyManagers(), builder.getTrustManagers());
      }
      try {
        return method.invoke(SharedVertx.INSTANCE, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    }
  }

  /** The process's vert.x instance for API clients: daemon event loops, no file caching. */
  private static final class SharedVertx {
    static final Vertx INSTANCE = Vertx.vertx(ContainerVertxOptions.create().setUseDaemonThread(true));

    /** Initialises this class, and so builds {@link #INSTANCE}. */
    static void build() {}
  }
}
