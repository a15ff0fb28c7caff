package io.koord4j.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.testing.LocalCluster;
import io.koord4j.testing.LocalNamespace;
import io.koord4j.webhook.tls.CertificateAuthority;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The local control plane is a real Kubernetes: versions, scheduling, Jobs, webhooks, RBAC. */
class LocalClusterIT {
  @RegisterExtension
  static final LocalNamespace NAMESPACE = new LocalNamespace("local-cluster-it");
  private static String namespace;
  private static KubernetesClient client;

  @BeforeAll
  static void connect() {
    client = NAMESPACE.client();
    namespace = NAMESPACE.name();
    LocalCluster.script("nodes", "--count", "2", "--cpu", "16", "--memory", "64Gi", "--prefix",
        "it-node");
  }

  @Test
  void serverIsKubernetes135OrLaterWithReadyKwokNodes() {
    VersionInfo version = client.getKubernetesVersion();
    assertThat(Integer.parseInt(version.getMajor())).isEqualTo(1);
    assertThat(Integer.parseInt(version.getMinor().replaceAll("\\D", ""))).isGreaterThanOrEqualTo(35);
    Node node = client.nodes().withName("it-node-0").get();
    assertThat(node.getStatus().getConditions())
        .anySatisfy(c -> {
          assertThat(c.getType()).isEqualTo("Ready");
          assertThat(c.getStatus()).isEqualTo("True");
        });
    assertThat(LocalCluster.script("up")).contains("export KUBECONFIG=");
  }

  @Test
  void jobWithParallelismThreeRunsToCompletion() {
    Job job = new JobBuilder()
        .withNewMetadata().withName("parallel-3").withNamespace(namespace).endMetadata()
        .withNewSpec().withParallelism(3).withCompletions(3)
        .withNewTemplate().withNewSpec().withRestartPolicy("Never")
        .addNewContainer().withName("work").withImage("busybox")
        .withNewResources().addToRequests("cpu", new io.fabric8.kubernetes.api.model.Quantity("1"))
        .endResources().endContainer()
        .endSpec().endTemplate().endSpec().build();
    client.batch().v1().jobs().resource(job).create();
    await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
      Job current = client.batch().v1().jobs().inNamespace(namespace).withName("parallel-3").get();
      assertThat(current.getStatus().getSucceeded()).isEqualTo(3);
    });
    assertThat(client.pods().inNamespace(namespace).withLabel("job-name", "parallel-3").list()
        .getItems()).as("pods bound by the scheduler").hasSize(3)
        .extracting(pod -> pod.getSpec().getNodeName()).doesNotContainNull();
  }

  @Test
  void mutatingWebhookCalledByTheApiServerChangesTheObject() throws Exception {
    CertificateAuthority ca = CertificateAuthority.create("local-cluster-it", Duration.ofHours(1));
    var serving = ca.issueServing(List.of("127.0.0.1", "localhost"), Duration.ofHours(1));
    HttpsServer server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(serving.serverSslContext()));
    server.createContext("/mutate", exchange -> {
      Map<?, ?> review = Serialization.unmarshal(exchange.getRequestBody(), Map.class);
      String uid = (String) ((Map<?, ?>) review.get("request")).get("uid");
      String patch = Base64.getEncoder().encodeToString(
          "[{\"op\":\"add\",\"path\":\"/data/mutated\",\"value\":\"yes\"}]".getBytes(StandardCharsets.UTF_8));
      byte[] body = ("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"response\":{"
          + "\"uid\":\"" + uid + "\",\"allowed\":true,\"patchType\":\"JSONPatch\",\"patch\":\"" + patch
          + "\"}}").getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
    String name = "local-cluster-it-mutate";
    try {
      client.admissionRegistration().v1().mutatingWebhookConfigurations().resource(
          new MutatingWebhookConfigurationBuilder().withNewMetadata().withName(name).endMetadata()
              .addNewWebhook().withName("mutate.local-cluster-it.koord4j.io")
              .withAdmissionReviewVersions("v1").withSideEffects("None").withFailurePolicy("Fail")
              .withNewClientConfig()
              .withUrl("https://127.0.0.1:" + server.getAddress().getPort() + "/mutate")
              .withCaBundle(Base64.getEncoder().encodeToString(
                  ca.certificatePem().getBytes(StandardCharsets.UTF_8)))
              .endClientConfig()
              .addNewRule().withApiGroups("").withApiVersions("v1").withResources("configmaps")
              .withOperations("CREATE").endRule()
              .withNewObjectSelector().addToMatchLabels("local-cluster-it/mutate", "true")
              .endObjectSelector()
              .endWebhook().build()).serverSideApply();
      ConfigMap created = await().atMost(Duration.ofSeconds(20)).ignoreExceptions().until(() -> {
        client.configMaps().inNamespace(namespace).withName("mutate-me").delete();
        return client.configMaps().resource(new ConfigMapBuilder().withNewMetadata()
            .withName("mutate-me").withNamespace(namespace)
            .addToLabels("local-cluster-it/mutate", "true").endMetadata()
            .addToData("original", "value").build()).create();
      }, cm -> cm.getData().containsKey("mutated"));
      assertThat(created.getData()).containsEntry("mutated", "yes").containsEntry("original", "value");
    } finally {
      client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(name).delete();
      server.stop(0);
    }
  }

  @Test
  void serviceAccountWithoutBindingIsForbidden() {
    String account = "no-rights";
    client.serviceAccounts().inNamespace(namespace).resource(
        new io.fabric8.kubernetes.api.model.ServiceAccountBuilder().withNewMetadata()
            .withName(account).withNamespace(namespace).endMetadata().build()).serverSideApply();
    String token = client.serviceAccounts().inNamespace(namespace).withName(account)
        .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(600L)
            .endSpec().build())
        .getStatus().getToken();
    Config config = new ConfigBuilder(Config.empty())
        .withMasterUrl(client.getConfiguration().getMasterUrl())
        .withCaCertData(client.getConfiguration().getCaCertData())
        .withOauthToken(token).build();
    try (KubernetesClient restricted = new KubernetesClientBuilder().withConfig(config).build()) {
      assertThatThrownBy(() -> restricted.pods().inNamespace(namespace).list())
          .isInstanceOfSatisfying(KubernetesClientException.class,
              e -> assertThat(e.getCode()).isEqualTo(403));
    }
  }
}
