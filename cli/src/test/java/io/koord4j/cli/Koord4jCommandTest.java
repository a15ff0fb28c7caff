package io.koord4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
    assertThat(out.toString()).contains("queues", "quota", "jobs", "why", "top", "import",
        "4   koord4j (or, to import, Kueue) CRDs not installed", "6   invalid objects to import");
  }

  @Test
  void importRefusesMalformedKueueObjectsNamingTheField(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("kueue.yaml");
    Files.writeString(file, """
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: LocalQueue
        metadata: {namespace: team, name: user-queue}
        spec: {}
        """);
    assertThat(run("import", "kueue", "-f", file.toString())).isEqualTo(CliFailure.INVALID_INPUT);
    assertThat(err.toString()).contains("error: LocalQueue user-queue: spec.clusterQueue is required");
  }

  private int run(String... args) {
    Koord4jCommand root = new Koord4jCommand();
    root.cluster = () -> new ClusterReader(new KubernetesClientBuilder()
        .withConfig(new ConfigBuilder().withMasterUrl("https://127.0.0.1:1").withRequestRetryBackoffLimit(0)
            .withConnectionTimeout(2000).build()).build());
    return Koord4jCommand.run(root, new PrintWriter(out, true), new PrintWriter(err, true), args);
  }
}
