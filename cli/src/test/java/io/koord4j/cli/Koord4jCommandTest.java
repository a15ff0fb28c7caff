package io.koord4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** Command-line handling that needs no cluster: bad input, and a cluster that does not answer. */
class Koord4jCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  @Test
  void anUnknownOutputFormatIsAUsageErrorNamingTheOption() {
    assertThat(run("queues", "-o", "xml")).isEqualTo(2);
    assertThat(err.toString()).contains("Invalid value for option '--output'").contains("TABLE, JSON, YAML")
        .contains("'xml'");
  }

  @Test
  void aTargetWithoutKindIsAUsageError() {
    assertThat(run("why", "train")).isEqualTo(2);
    assertThat(err.toString()).contains("KIND/NAME must look like job/train");
  }

  @Test
  void anUnreachableClusterExitsWithItsOwnCodeAndSaysWhatToCheck() {
    assertThat(run("queues")).isEqualTo(CliFailure.NO_CLUSTER);
    assertThat(err.toString()).contains("cannot reach the Kubernetes API server at https://127.0.0.1:1/")
        .contains("check KUBECONFIG");
  }

  @Test
  void anUnknownJobKindIsNotFound() {
    assertThat(run("why", "deployment/web", "-n", "team")).isEqualTo(CliFailure.NOT_FOUND);
    assertThat(err.toString()).contains("\"deployment\" is not a job kind koord4j queues").contains("PyTorchJob");
  }

  @Test
  void helpListsEveryCommandAndTheExitCodes() {
    assertThat(run("--help")).isZero();
    assertThat(out.toString()).contains("queues", "quota", "jobs", "why", "top", "4   koord4j CRDs not installed");
  }

  private int run(String... args) {
    Koord4jCommand root = new Koord4jCommand();
    root.cluster = () -> new ClusterReader(new KubernetesClientBuilder()
        .withConfig(new ConfigBuilder().withMasterUrl("https://127.0.0.1:1").withRequestRetryBackoffLimit(0)
            .withConnectionTimeout(2000).build()).build());
    return Koord4jCommand.run(root, new PrintWriter(out, true), new PrintWriter(err, true), args);
  }
}
