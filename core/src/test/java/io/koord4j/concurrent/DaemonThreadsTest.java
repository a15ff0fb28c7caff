package io.koord4j.concurrent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DaemonThreadsTest {
  @Test
  void threadsAreDaemonsWithTheGivenName() {
    Thread thread = DaemonThreads.named("reader").newThread(() -> {});

    assertThat(thread.isDaemon()).isTrue();
    assertThat(thread.getName()).isEqualTo("reader");
  }

  @Test
  void poolThreadsAreNumberedInOrder() {
    var threads = DaemonThreads.numbered("binding");

    assertThat(threads.newThread(() -> {}).getName()).isEqualTo("binding-0");
    Thread second = threads.newThread(() -> {});
    assertThat(second.getName()).isEqualTo("binding-1");
    assertThat(second.isDaemon()).isTrue();
  }

  @Test
  void schedulerRunsTasksOnItsNamedDaemonThread() throws Exception {
    ScheduledExecutorService scheduler = DaemonThreads.scheduler("timer");
    try {
      Thread ran = scheduler.schedule(Thread::currentThread, 1, TimeUnit.MILLISECONDS).get(5, TimeUnit.SECONDS);

      assertThat(ran.getName()).isEqualTo("timer");
      assertThat(ran.isDaemon()).isTrue();
    } finally {
      scheduler.shutdownNow();
    }
  }
}
