package io.koord4j.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TiedToParentTest {
  /** A main that never returns by itself, as a manager's. */
  public static final class RunsForever {
    public static void main(String[] args) throws InterruptedException {
      Thread.sleep(Long.MAX_VALUE);
    }
  }

  @Test
  void aComponentProcessEndsWhenTheProcessThatStartedItIsGone(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("child.log");
    Process parent = new ProcessBuilder("sleep", "600").start();
    Process child = new ProcessBuilder(JavaProcess.command(List.of("-Xmx32m"), parent.pid(), RunsForever.class.getName()))
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
    try {
      // Once the watch has found its parent alive, a child still running shows it waits for the parent.
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(20))
          .failFast("the child ended before it watched its parent", () -> !child.isAlive())
          .until(() -> Files.readString(log).contains("watching the test JVM " + parent.pid()));
      assertThat(child.isAlive()).as("the child runs while its parent does").isTrue();

      parent.destroyForcibly().waitFor();

      assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("the child ended after its parent").isTrue();
      assertThat(child.exitValue()).isEqualTo(137);
      assertThat(Files.readString(log)).contains("is gone; halting");
    } finally {
      List.of(parent, child).forEach(Process::destroyForcibly);
    }
  }
}
