package io.koord4j.webhook;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.concurrent.DaemonThreads;
import io.koord4j.jobs.JobAdapters;
import io.koord4j.webhook.admission.JobMutator;
import io.koord4j.webhook.admission.QueueLookup;
import io.koord4j.webhook.admission.quota.QuotaLookup;
import io.koord4j.webhook.cache.ClusterCache;
import io.koord4j.webhook.http.AdmissionRoute;
import io.koord4j.webhook.http.AdmissionServer;
import io.koord4j.webhook.registration.ClientEndpoint;
import io.koord4j.webhook.registration.Koord4jUser;
import io.koord4j.webhook.registration.MutatingEndpoint;
import io.koord4j.webhook.registration.ValidatingEndpoint;
import io.koord4j.webhook.registration.WebhookConfigurations;
import io.koord4j.webhook.registration.WebhookRegistrar;
import io.koord4j.webhook.tls.CertificateKeeper;
import io.koord4j.webhook.tls.CertificateRotation;
import io.koord4j.webhook.tls.KubernetesSecretStore;
import io.koord4j.webhook.tls.ReloadableKeyManager;
import io.koord4j.webhook.tls.SharedCertificates;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admission webhook as a whole: certificates kept in a shared Secret and rotated, the HTTPS
 * server, and the webhook configurations that point the API server at it. Runs alone through
 * {@link WebhookMain} or embedded in the manager.
 *
 * <p>Certificates rotate without failing an admission call: see {@link CertificateRotation} for
 * the plan and {@link CertificateKeeper} for what each replica serves meanwhile.
 */
public final class WebhookServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WebhookServer.class);
  private static final Duration CACHE_FILL_TIMEOUT = Duration.ofSeconds(60);

  private final KubernetesClient client;
  private final WebhookSettings settings;
  private final Webhooks webhooks;
  private final CertificateKeeper certificates;
  private final WebhookRegistrar registrar;
  private final MeterRegistry registry;
  private final ClusterCache cache;
  /** The trust bundle last written to the configurations, and the other mutating webhooks in them. */
  private String writtenBundle;
  private List<MutatingEndpoint> registeredMutators = List.of();
  private final ScheduledExecutorService refresher = DaemonThreads.scheduler("koord4j-webhook-certificates");

  private WebhookConfigurations configurations;
  private AdmissionServer server;
  private ReloadableKeyManager keys;
  private ClientEndpoint endpoint;

  /**
   * What the server serves: the job mutation over {@code queues} and {@code quotas}, and the other
   * webhooks.
   */
  private record Webhooks(
      JobAdapters adapters,
      QueueLookup queues,
      QuotaLookup quotas,
      List<MutatingEndpoint> mutators,
      List<ValidatingEndpoint> validators) {
    Webhooks {
      mutators = List.copyOf(mutators);
      validators = List.copyOf(validators);
    }
  }

  /**
   * The server with every koord4j handler (jobs, quotas, queues, queue units, gang pods, pods of
   * profile quota trees), looking queues, quotas, PodGroups and profiles up in its own {@link
   * ClusterCache}, timing reviews in Micrometer's global registry.
   */
  public static WebhookServer withAllHandlers(KubernetesClient client, WebhookSettings settings) {
    return withAllHandlers(client, settings, Metrics.globalRegistry);
  }

  /** {@link #withAllHandlers(KubernetesClient, WebhookSettings)}, timing reviews in {@code registry}. */
  public static WebhookServer withAllHandlers(
      KubernetesClient client, WebhookSettings settings, MeterRegistry registry) {
    ClusterCache cache = new ClusterCache(client);
    return new WebhookServer(
        client,
        settings,
        new Webhooks(
            JobAdapters.builtIn(),
            cache.queues(),
            cache.quotas(),
            concat(
                ResourceWebhooks.mutating(cache.quotas()),
                concat(
                    PodWebhooks.mutating(cache.gangs()),
                    List.of(PodWebhooks.quotaTrees(cache.quotas(), cache.profiles())))),
            ResourceWebhooks.validating(cache.quotas())),
        registry,
        cache);
  }

  /**
   * A server over the caller's lookups, timing reviews in Micrometer's global registry.
   *
   * @param queues the queues that exist
   * @param quotas the quotas that exist, which jobs may name only in the namespaces bound to them
   * @param mutators mutating webhooks to serve besides the job mutation
   * @param validators validating webhooks to serve
   */
  public WebhookServer(
      KubernetesClient client,
      WebhookSettings settings,
      JobAdapters adapters,
      QueueLookup queues,
      QuotaLookup quotas,
      List<MutatingEndpoint> mutators,
      List<ValidatingEndpoint> validators) {
    this(client, settings, new Webhooks(adapters, queues, quotas, mutators, validators), Metrics.globalRegistry, null);
  }

  /**
   * @param registry where the admission timers are registered
   * @param cache filled before serving and closed with the server; null when the lookups are the
   *     caller's
   */
  private WebhookServer(
      KubernetesClient client, WebhookSettings settings, Webhooks webhooks, MeterRegistry registry, ClusterCache cache) {
    this.client = client;
    this.cache = cache;
    this.settings = settings;
    this.registry = registry;
    this.webhooks = webhooks;
    this.certificates =
        new CertificateKeeper(
            new SharedCertificates(
                new KubernetesSecretStore(client, settings.namespace(), settings.secretName()),
                new CertificateRotation(
                    "koord4j-webhook-ca", settings.subjectAltNames(), settings.rotationTiming())),
            this::register,
            settings.settleDelay(),
            Clock.systemUTC());
    this.registrar = new WebhookRegistrar(client);
  }

  /**
   * Asks who koord4j is, fills the caches, gets the certificates, starts serving, registers the
   * configurations, then keeps them fresh.
   */
  public synchronized void start() {
    String koord4jUser = Koord4jUser.of(client);
    LOG.info("koord4j acts as {}: only its updates may release a job its queue holds", koord4jUser);
    configurations =
        new WebhookConfigurations(
            settings.configurationNames(),
            settings.namespace(),
            settings.managedNamespaces(),
            settings.useNamespaceDefaultQueue(),
            koord4jUser);
    if (cache != null) {
      cache.start(CACHE_FILL_TIMEOUT);
      cache.whenProfilesComeOrGo(this::registerLogged);
    }
    keys = new ReloadableKeyManager(certificates.initial());
    JobMutator jobs =
        new JobMutator(
            webhooks.adapters(),
            webhooks.queues(),
            webhooks.quotas(),
            settings.useNamespaceDefaultQueue(),
            koord4jUser);
    server =
        AdmissionServer.start(
            settings.bindHost(),
            settings.port(),
            keys,
            routes(jobs, webhooks.mutators(), webhooks.validators()),
            registry,
            settings.sharedPort());
    endpoint =
        settings.localUrlHost() != null
            ? new ClientEndpoint.Url(settings.localUrlHost(), server.port())
            : new ClientEndpoint.Service(
                settings.namespace(), settings.serviceName(), settings.servicePort());
    refresh();
    long period = settings.refreshPeriod().toMillis();
    refresher.scheduleWithFixedDelay(this::refreshLogged, period, period, TimeUnit.MILLISECONDS);
    LOG.info("admission webhook serving on port {}", server.port());
  }

  public int port() {
    return server.port();
  }

  /** Stops serving; the configurations stay, so queued jobs are refused until a replica is back. */
  @Override
  public synchronized void close() {
    stop(AdmissionServer::close);
  }

  /**
   * Stops serving without failing a review, for a successor already serving: see {@link
   * AdmissionServer#closeGracefully}.
   */
  public synchronized void closeGracefully(Duration linger) {
    stop(admission -> admission.closeGracefully(linger));
  }

  private void stop(Consumer<AdmissionServer> closing) {
    refresher.shutdownNow();
    if (server != null) {
      closing.accept(server);
    }
    if (cache != null) {
      cache.close();
    }
  }

  /** Deletes the configurations, e.g. on uninstall or after a test. */
  public void unregister() {
    registrar.delete(settings.configurationNames());
  }

  private void refreshLogged() {
    try {
      refresh();
      registerIfWantsChanged();
    } catch (RuntimeException e) {
      LOG.warn("certificate refresh failed; retrying in {}", settings.refreshPeriod(), e);
    }
  }

  private void registerLogged() {
    try {
      registerIfWantsChanged();
    } catch (RuntimeException e) {
      LOG.warn("writing the webhook configurations failed; retrying in {}", settings.refreshPeriod(), e);
    }
  }

  private void refresh() {
    certificates
        .refresh()
        .ifPresent(
            serving -> {
              keys.swap(serving);
              LOG.info(
                  "serving certificate renewed, valid until {}",
                  serving.certificate().getNotAfter());
            });
  }

  /** Writes the configurations with the trust bundle and the webhooks wanted now. */
  private synchronized void register(String bundle) {
    List<MutatingEndpoint> wanted =
        webhooks.mutators().stream().filter(mutator -> mutator.wanted().getAsBoolean()).toList();
    registrar.apply(
        configurations.mutating(webhooks.adapters(), wanted, endpoint, bundle),
        configurations.validating(webhooks.validators(), endpoint, bundle));
    writtenBundle = bundle;
    registeredMutators = wanted;
    LOG.info("webhook configurations written, with the trust bundle and {} of {} other mutating webhooks",
        wanted.size(), webhooks.mutators().size());
  }

  /**
   * Registers again when a mutating webhook is now wanted or unwanted: called when what its answer
   * depends on changes, and with each certificate check, so a write that failed is made again.
   */
  private synchronized void registerIfWantsChanged() {
    boolean changed =
        webhooks.mutators().stream()
            .anyMatch(mutator -> mutator.wanted().getAsBoolean() != registeredMutators.contains(mutator));
    if (writtenBundle != null && changed) {
      register(writtenBundle);
    }
  }

  private static <T> List<T> concat(List<T> first, List<T> second) {
    return Stream.concat(first.stream(), second.stream()).toList();
  }

  /** Each path fails as its webhook is registered: see {@link WebhookConfigurations}. */
  static Map<String, AdmissionRoute> routes(
      JobMutator jobs, List<MutatingEndpoint> mutators, List<ValidatingEndpoint> validators) {
    Map<String, AdmissionRoute> routes = new HashMap<>();
    routes.put(WebhookConfigurations.JOBS_PATH, AdmissionRoute.failingClosed(jobs.handler(false)));
    routes.put(
        WebhookConfigurations.MANAGED_NAMESPACE_JOBS_PATH,
        AdmissionRoute.failingClosed(jobs.handler(true)));
    routes.put(
        WebhookConfigurations.DEFAULT_QUEUE_JOBS_PATH,
        AdmissionRoute.failingOpen(jobs.handler(false)));
    mutators.forEach(
        mutator ->
            routes.put(
                mutator.path(),
                new AdmissionRoute(mutator.handler(), "Ignore".equals(mutator.failurePolicy()))));
    validators.forEach(
        validator -> routes.put(validator.path(), AdmissionRoute.failingClosed(validator.handler())));
    return routes;
  }
}
