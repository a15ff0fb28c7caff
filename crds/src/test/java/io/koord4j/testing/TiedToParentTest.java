package io.koord4j.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TiedToParentTest {
  /** A main that never returns by itself, as a manager's. */
  public static final class RunsForever {
    public static void main(String[] args) throws InterruptedException {
      Thread.sleep(Long.MAX_VALUE);
    }
  }

  @Test
  void aComponentProcessEndsWhenTheProcessThatStartedItIsGone() throws Exception {
    Process parent = new ProcessBuilder("sleep", "600").start();
    Process child = new ProcessBuilder(JavaProcess.command(List.of("-Xmx32m"), parent.pid(), RunsForever.class.getName()))
        .redirectErrorStream(true)
        .start();
    try {
      assertThat(child.waitFor(2, TimeUnit.SECONDS)).as("the child runs while its parent does").isFalse();

      parent.destroyForcibly().waitFor();

      assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("the child ended after its parent").isTrue();
      assertThat(child.exitValue()).isEqualTo(137);
      assertThat(new String(child.getInputStream().readAllBytes())).contains("is gone; halting");
    } finally {
      List.of(parent, child).forEach(Process::destroyForcibly);
    }
  }
}
