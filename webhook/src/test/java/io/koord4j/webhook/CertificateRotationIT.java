package io.koord4j.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.koord4j.api.WellKnown;
import io.koord4j.jobs.JobAdapters;
import io.koord4j.webhook.admission.FixedQueues;
import io.koord4j.webhook.tls.TlsMaterial;
import java.math.BigInteger;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Serving certificate and CA renewed while jobs are created: no create fails. */
class CertificateRotationIT {
  private static final Logger LOG = LoggerFactory.getLogger(CertificateRotationIT.class);
  /** A minute of creates: how long the load may wait for both certificates to change. */
  private static final int MAX_CREATES = 3000;

  @RegisterExtension
  final WebhookTestBed bed = new WebhookTestBed("rotation-it");
  private final KubernetesClient client = bed.client;
  private final String ownNamespace = bed.ownNamespace;
  private final String jobNamespace = bed.objectNamespace;
  private WebhookServer server;

  @Test
  void fiftyJobsPerSecondWhileCertificatesRotate() throws Exception {
    // Serving renewed every ~4 s, CA change started every ~8 s (at a third of the validity left).
    WebhookSettings settings = WebhookServerIT.settings(ownNamespace, jobNamespace)
        .withRotation(Duration.ofSeconds(12), Duration.ofSeconds(6), Duration.ofMillis(250),
            Duration.ofSeconds(1));
    server = new WebhookServer(
        client, settings, JobAdapters.builtIn(), FixedQueues.NONE, List::of, List.of(), List.of());
    bed.start(server);
    await().atMost(Duration.ofSeconds(20)).ignoreExceptions().until(
        () -> createJob("warm-up-" + UUID.randomUUID().toString().substring(0, 5)),
        job -> Boolean.TRUE.equals(job.getSpec().getSuspend()));
    TlsMaterial before = material();
    BigInteger servedBefore = servedSerial();

    Queue<String> failures = new ConcurrentLinkedQueue<>();
    AtomicInteger unsuspended = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    long start = System.nanoTime();
    // At least ten seconds, and on until both the CA and the serving certificate have changed: a
    // busy API server can delay the CA's switch past the first ten seconds.
    for (int i = 0; i < MAX_CREATES; i++) {
      if (i >= 500 && i % 50 == 0 && bothRotated(before)) {
        break;
      }
      long due = start + TimeUnit.MILLISECONDS.toNanos(20L * i);
      long wait = due - System.nanoTime();
      if (wait > 0) {
        TimeUnit.NANOSECONDS.sleep(wait);
      }
      String name = "load-" + i;
      pool.submit(() -> {
        try {
          if (!Boolean.TRUE.equals(createOnce(name).getSpec().getSuspend())) {
            unsuspended.incrementAndGet();
          }
        } catch (RuntimeException e) {
          LOG.warn("create of {} failed: {}", name, causes(e));
          failures.add(name + ": " + causes(e));
        }
      });
    }
    pool.shutdown();
    assertThat(pool.awaitTermination(5, TimeUnit.MINUTES)).as("every create answered").isTrue();
    TlsMaterial after = material();

    assertThat(failures).isEmpty();
    assertThat(unsuspended).hasValue(0);
    assertThat(after.signer().certificate()).isNotEqualTo(before.signer().certificate());
    assertThat(after.serving().certificate()).isNotEqualTo(before.serving().certificate());
    // The renewed certificate in the Secret is also the one the server presents.
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
      BigInteger served = servedSerial();
      assertThat(served).as("serial served after rotation").isNotEqualTo(servedBefore)
          .isEqualTo(material().serving().certificate().getSerialNumber());
    });
  }

  /**
   * The serial number of the certificate the webhook presents in a TLS handshake. The peer is
   * not verified: only what it presents is read.
   */
  private BigInteger servedSerial() throws Exception {
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, new TrustManager[] {new ReadOnlyTrust()}, null);
    try (SSLSocket socket =
        (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", server.port())) {
      socket.startHandshake();
      return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
    }
  }

  /** Accepts any server certificate, so that the test can read which one is served. */
  private static final class ReadOnlyTrust implements X509TrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }

  /** Each exception in the cause chain with its class, so that a failure says what it was. */
  private static String causes(Throwable failure) {
    StringBuilder text = new StringBuilder();
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      text.append(cause == failure ? "" : " <- caused by ")
          .append(cause.getClass().getName()).append(": ").append(cause.getMessage());
    }
    return text.toString();
  }

  private boolean bothRotated(TlsMaterial before) {
    TlsMaterial now = material();
    return !now.signer().certificate().equals(before.signer().certificate())
        && !now.serving().certificate().equals(before.serving().certificate());
  }

  private TlsMaterial material() {
    Secret secret = client.secrets().inNamespace(ownNamespace).withName("webhook-it-tls").get();
    Map<String, String> data = new java.util.HashMap<>();
    secret.getData().forEach((key, value) ->
        data.put(key, new String(java.util.Base64.getDecoder().decode(value))));
    return TlsMaterial.fromSecretData(data);
  }

  /**
   * Creates the job, resending once when the test client's own connection to the API server
   * drops before any answer (code 0): that is not an admission failure. Any answer from the API
   * server, such as a failed webhook call, counts.
   */
  private Job createOnce(String name) {
    try {
      return createJob(name);
    } catch (KubernetesClientException e) {
      if (e.getCode() != 0) {
        throw e;
      }
      Job stored = client.batch().v1().jobs().inNamespace(jobNamespace).withName(name).get();
      return stored != null ? stored : createJob(name);
    }
  }

  private Job createJob(String name) {
    return client.batch().v1().jobs().inNamespace(jobNamespace)
        .resource(WebhookServerIT.job(name, Map.of(WellKnown.KUEUE_QUEUE_NAME, "gpu"))).create();
  }
}
