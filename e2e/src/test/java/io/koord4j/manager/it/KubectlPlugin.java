package io.koord4j.manager.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.koord4j.testing.LocalCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code kubectl koord4j} installed as kubectl installs a plugin (launcher script and jar in a
 * directory of their own) and run as a process against the local cluster. Each command, its
 * output and its wall time (start-up included) go to a transcript, the source of the docs'
 * examples.
 */
final class KubectlPlugin {
  record Result(int exit, String out, String err) {}

  private final Path launcher;
  private final Path transcript;

  private KubectlPlugin(Path launcher, Path transcript) {
    this.launcher = launcher;
    this.transcript = transcript;
  }

  /** @param transcriptName the transcript's file name under {@code e2e/target}, started afresh */
  static KubectlPlugin install(String transcriptName) throws IOException {
    Path root = LocalCluster.repoRoot().resolve("cli");
    Path jar = root.resolve("target/kubectl-koord4j.jar");
    assertThat(jar).as("the plugin jar; build it with mvn -pl e2e -am verify (or package the cli module)").exists();
    Path bin = Files.createTempDirectory("kubectl-koord4j");
    Files.copy(jar, bin.resolve("kubectl-koord4j.jar"), StandardCopyOption.REPLACE_EXISTING);
    Path launcher = bin.resolve("kubectl-koord4j");
    Files.copy(root.resolve("src/main/sh/kubectl-koord4j"), launcher, StandardCopyOption.REPLACE_EXISTING);
    launcher.toFile().setExecutable(true);
    Path transcript = LocalCluster.repoRoot().resolve("e2e/target").resolve(transcriptName);
    Files.deleteIfExists(transcript);
    return new KubectlPlugin(launcher, transcript);
  }

  Result run(String... args) {
    List<String> command = new ArrayList<>(List.of(launcher.toString()));
    command.addAll(List.of(args));
    try {
      ProcessBuilder builder = new ProcessBuilder(command);
      builder.environment().put("KUBECONFIG", LocalCluster.kubeconfig().toString());
      Path err = Files.createTempFile("kubectl-koord4j", ".err");
      long started = System.nanoTime();
      Process process = builder.redirectError(err.toFile()).start();
      String out = new String(process.getInputStream().readAllBytes());
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the plugin ends").isTrue();
      long millis = (System.nanoTime() - started) / 1_000_000;
      Result result = new Result(process.exitValue(), out, Files.readString(err));
      Files.writeString(transcript, "$ kubectl koord4j " + String.join(" ", args) + "\n" + out + result.err()
          + "# exit " + result.exit() + ", " + millis + " ms\n\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      return result;
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
