package io.koord4j.webhook;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.koord4j.probes.ListenAddress;
import io.koord4j.probes.SharedPort;
import io.koord4j.webhook.registration.WebhookConfigurations;
import io.koord4j.webhook.tls.RotationTiming;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * How a webhook server is set up.
 *
 * @param namespace koord4j's own namespace: holds the certificate Secret and is never matched
 * @param serviceName the Service in front of the webhook (its DNS names are in the certificate)
 * @param servicePort the Service's port
 * @param secretName the Secret with the CA and serving certificate
 * @param configurationNames names of the Mutating- and ValidatingWebhookConfiguration
 * @param bindHost the address to listen on
 * @param port the port to listen on; 0 picks a free one
 * @param localUrlHost when set, the configurations point at {@code https://<host>:<port>} instead
 *     of the Service (an API server on this machine)
 * @param caValidity how long a CA is valid
 * @param servingValidity how long a serving certificate is valid
 * @param refreshPeriod how often the Secret is checked for rotation
 * @param settleDelay how long the API server may take to use a newly written caBundle: a
 *     certificate of a new CA is served only that long after the CA joined the bundle
 * @param managedNamespaces namespaces whose jobs are all queued, or null for none
 * @param useNamespaceDefaultQueue whether a job without a queue label joins its namespace's queue
 *     named {@code default}
 * @param sharedPort listen with SO_REUSEPORT, so that a successor in the node's network can serve
 *     on the same port before this server stops (see {@code SharedPort})
 */
public record WebhookSettings(
    String namespace,
    String serviceName,
    int servicePort,
    String secretName,
    WebhookConfigurations.Names configurationNames,
    String bindHost,
    int port,
    String localUrlHost,
    Duration caValidity,
    Duration servingValidity,
    Duration refreshPeriod,
    Duration settleDelay,
    LabelSelector managedNamespaces,
    boolean useNamespaceDefaultQueue,
    boolean sharedPort) {

  /** In-cluster defaults: Service {@code koord4j-webhook} in {@code namespace}, port 9443. */
  public static WebhookSettings defaults(String namespace) {
    return new WebhookSettings(
        namespace,
        "koord4j-webhook",
        443,
        "koord4j-webhook-tls",
        WebhookConfigurations.Names.DEFAULT,
        "0.0.0.0",
        9443,
        null,
        Duration.ofDays(365),
        Duration.ofDays(90),
        Duration.ofMinutes(1),
        Duration.ofSeconds(10),
        null,
        false,
        false);
  }

  /**
   * The in-cluster defaults, changed by the environment, for the webhook alone and in the manager.
   *
   * <p>{@code KOORD4J_NAMESPACE} (default {@code koord4j-system}), {@code KOORD4J_WEBHOOK_PORT}
   * (9443), {@code KOORD4J_WEBHOOK_ADDRESS} (the address to listen on, e.g. the pod's IP; default
   * every address), {@code KOORD4J_WEBHOOK_URL_HOST} (e.g. {@code 127.0.0.1}: register a URL
   * instead of the Service, and listen there, since that is where the API server calls),
   * {@code KOORD4J_MANAGED_NAMESPACES} ({@code key=value}: the label of namespaces
   * whose jobs are all queued), {@code KOORD4J_NAMESPACE_DEFAULT_QUEUE} ({@code true}: unlabelled
   * jobs join their namespace's queue {@code default}), {@code KOORD4J_SHARED_PORTS} ({@code true}:
   * share the port with a successor on the same host), {@code KOORD4J_WEBHOOK_CONFIGURATION_PREFIX}
   * ({@code koord4j}: the configurations {@code <prefix>-mutating} and {@code <prefix>-validating},
   * cluster-wide names another installation must not share).
   *
   * @throws IllegalArgumentException naming the variable whose value cannot be read
   */
  public static WebhookSettings fromEnvironment(Map<String, String> env) {
    WebhookSettings settings =
        defaults(value(env, "KOORD4J_NAMESPACE", "koord4j-system"))
            .withQueueing(
                managedNamespaces(env.get("KOORD4J_MANAGED_NAMESPACES")),
                Boolean.parseBoolean(value(env, "KOORD4J_NAMESPACE_DEFAULT_QUEUE", "false")))
            .withSharedPort(SharedPort.requested(env));
    settings = ListenAddress.of(env.get("KOORD4J_WEBHOOK_ADDRESS")).map(settings::withBindHost).orElse(settings);
    String prefix = env.get("KOORD4J_WEBHOOK_CONFIGURATION_PREFIX");
    if (prefix != null && !prefix.isBlank()) {
      settings = settings.withNames(settings.secretName(), WebhookConfigurations.Names.prefixed(prefix.strip()));
    }
    String urlHost = env.get("KOORD4J_WEBHOOK_URL_HOST");
    return urlHost == null || urlHost.isBlank()
        ? settings
        : settings.withLocalUrl(urlHost, port(env, "KOORD4J_WEBHOOK_PORT", 9443));
  }

  /**
   * The rotation timing these settings imply.
   *
   * @throws IllegalArgumentException when the validities are too short for the refresh period and
   *     settle delay to rotate without a failed admission call
   */
  public RotationTiming rotationTiming() {
    return new RotationTiming(caValidity, servingValidity, refreshPeriod, settleDelay);
  }

  /** DNS names of the Service, and 127.0.0.1 for an API server on this machine. */
  public List<String> subjectAltNames() {
    String service = serviceName + "." + namespace + ".svc";
    return List.of(service, service + ".cluster.local", "127.0.0.1");
  }

  public WebhookSettings withLocalUrl(String host, int port) {
    return new WebhookSettings(namespace, serviceName, servicePort, secretName, configurationNames,
        host, port, host, caValidity, servingValidity, refreshPeriod, settleDelay,
        managedNamespaces, useNamespaceDefaultQueue, sharedPort);
  }

  public WebhookSettings withBindHost(String host) {
    return new WebhookSettings(namespace, serviceName, servicePort, secretName, configurationNames,
        host, port, localUrlHost, caValidity, servingValidity, refreshPeriod, settleDelay,
        managedNamespaces, useNamespaceDefaultQueue, sharedPort);
  }

  public WebhookSettings withNames(String secret, WebhookConfigurations.Names configurations) {
    return new WebhookSettings(namespace, serviceName, servicePort, secret, configurations,
        bindHost, port, localUrlHost, caValidity, servingValidity, refreshPeriod, settleDelay,
        managedNamespaces, useNamespaceDefaultQueue, sharedPort);
  }

  public WebhookSettings withRotation(
      Duration ca, Duration serving, Duration refresh, Duration settle) {
    return new WebhookSettings(namespace, serviceName, servicePort, secretName,
        configurationNames, bindHost, port, localUrlHost, ca, serving, refresh, settle,
        managedNamespaces, useNamespaceDefaultQueue, sharedPort);
  }

  public WebhookSettings withQueueing(LabelSelector managed, boolean namespaceDefaultQueue) {
    return new WebhookSettings(namespace, serviceName, servicePort, secretName,
        configurationNames, bindHost, port, localUrlHost, caValidity, servingValidity,
        refreshPeriod, settleDelay, managed, namespaceDefaultQueue, sharedPort);
  }

  public WebhookSettings withSharedPort(boolean shared) {
    return new WebhookSettings(namespace, serviceName, servicePort, secretName,
        configurationNames, bindHost, port, localUrlHost, caValidity, servingValidity,
        refreshPeriod, settleDelay, managedNamespaces, useNamespaceDefaultQueue, shared);
  }

  private static LabelSelector managedNamespaces(String keyValue) {
    if (keyValue == null || keyValue.isBlank()) {
      return null;
    }
    String[] parts = keyValue.split("=", 2);
    if (parts.length != 2) {
      throw new IllegalArgumentException(
          "KOORD4J_MANAGED_NAMESPACES must be key=value, got " + keyValue);
    }
    return new LabelSelectorBuilder().addToMatchLabels(parts[0].strip(), parts[1].strip()).build();
  }

  /**
   * The port the variable names, or {@code fallback} when it is unset.
   *
   * @throws IllegalArgumentException naming the variable when its value is not a number
   */
  static int port(Map<String, String> env, String name, int fallback) {
    String port = value(env, name, Integer.toString(fallback));
    try {
      return Integer.parseInt(port);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a port number, got " + port);
    }
  }

  private static String value(Map<String, String> env, String name, String fallback) {
    String value = env.get(name);
    return value == null || value.isBlank() ? fallback : value;
  }
}
