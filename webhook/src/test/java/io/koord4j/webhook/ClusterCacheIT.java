package io.koord4j.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.api.gang.PodGroup;
import io.koord4j.api.gang.PodGroupSpec;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueSpec;
import io.koord4j.webhook.admission.JobMutator;
import io.koord4j.webhook.admission.WouldBlock;
import io.koord4j.webhook.cache.ClusterCache;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The webhook's caches against the real API server: filled before use, what a miss does, and that
 * a lookup needing the API server refuses to block an event loop.
 */
class ClusterCacheIT {
  @RegisterExtension
  final WebhookTestBed bed = new WebhookTestBed("cache-it");
  private final KubernetesClient client = bed.client;
  private final String namespace = bed.objectNamespace;

  @Test
  void aStartedCacheHoldsWhatExistedBeforeIt() {
    createQueue(JobMutator.DEFAULT_QUEUE);
    createPodGroup("train", 3);

    ClusterCache cache = bed.startCache();

    // Answered from the cache alone: no waiting, no read from the API server.
    assertThat(cache.queues().existsIn(namespace, JobMutator.DEFAULT_QUEUE)).isTrue();
    assertThat(cache.queues().existsIn("elsewhere-" + bed.suffix, JobMutator.DEFAULT_QUEUE))
        .isFalse();
    assertThat(cache.gangs().minMember(namespace, "train")).isEqualTo(OptionalInt.of(3));
  }

  @Test
  void whatTheCacheHasNotSeenYetIsReadFromTheApiServer() {
    String queue = "team-" + bed.suffix;
    createQueue(queue);
    createQueue(JobMutator.DEFAULT_QUEUE);
    createPodGroup("train", 2);

    try (ClusterCache notFilled = new ClusterCache(client)) {
      assertThat(notFilled.queues().exists(queue)).as("named queue").isTrue();
      assertThat(notFilled.queues().exists("absent-" + bed.suffix)).isFalse();
      assertThat(notFilled.gangs().minMember(namespace, "train")).isEqualTo(OptionalInt.of(2));
      assertThat(notFilled.gangs().minMember(namespace, "absent")).isEmpty();
      assertThat(notFilled.queues().existsIn(namespace, JobMutator.DEFAULT_QUEUE))
          .as("the default queue is answered from the cache alone").isFalse();
    }
  }

  @Test
  void onAnEventLoopALookupThatNeedsTheApiServerSaysSoInsteadOfBlocking() throws Exception {
    String queue = "team-" + bed.suffix;
    createQueue(queue);
    createPodGroup("train", 2);
    Vertx vertx = Vertx.vertx();
    try (ClusterCache notFilled = new ClusterCache(client)) {
      List<Supplier<Object>> lookups = List.of(
          () -> notFilled.queues().exists(queue),
          () -> notFilled.gangs().minMember(namespace, "train"),
          () -> notFilled.quotas().fresh());
      for (Supplier<Object> lookup : lookups) {
        CompletableFuture<Object> onEventLoop = new CompletableFuture<>();
        vertx.runOnContext(v -> {
          try {
            onEventLoop.complete(lookup.get());
          } catch (RuntimeException e) {
            onEventLoop.completeExceptionally(e);
          }
        });
        assertThatThrownBy(() -> onEventLoop.get(20, TimeUnit.SECONDS))
            .hasCauseInstanceOf(WouldBlock.class);
      }
      assertThat(notFilled.queues().exists(queue)).as("off the event loop, read").isTrue();
      assertThat(notFilled.gangs().minMember(namespace, "train")).isEqualTo(OptionalInt.of(2));
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }
  }

  private void createQueue(String name) {
    Queue queue = new Queue();
    queue.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
    queue.setSpec(new QueueSpec());
    client.resource(queue).create();
  }

  private void createPodGroup(String name, int minMember) {
    PodGroup group = new PodGroup();
    group.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
    PodGroupSpec spec = new PodGroupSpec();
    spec.setMinMember(minMember);
    group.setSpec(spec);
    client.resource(group).create();
  }
}
