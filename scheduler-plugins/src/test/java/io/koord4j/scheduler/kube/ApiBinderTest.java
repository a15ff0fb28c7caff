package io.koord4j.scheduler.kube;

import static io.koord4j.scheduler.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Binding against an API server that times out, and whose timed-out bindings may have landed. */
class ApiBinderTest {
  private final Pod pod = pod("p", "1", "1Gi");
  private final ApiServer server = new ApiServer();
  private final ApiBinder binder = new ApiBinder(server, Duration.ZERO);

  @Test
  void bindsThePodWithOneBindingOfItsNameAndUidToTheNode() {
    binder.bind(pod, "n1");

    Binding expected = new BindingBuilder()
        .withNewMetadata().withNamespace("default").withName("p").withUid(pod.getMetadata().getUid()).endMetadata()
        .withNewTarget().withApiVersion("v1").withKind("Node").withName("n1").endTarget()
        .build();
    assertThat(server.created).containsExactly(expected);
    assertThat(server.reads).as("a binding answered needs no read-back").isEmpty();
    assertThat(server.stored.getSpec().getNodeName()).isEqualTo("n1");
  }

  @Test
  void throttlingAndServerErrorsAreRetried() {
    server.refuses(429);
    server.refuses(503);

    binder.bind(pod, "n1");

    assertThat(server.created).hasSize(3);
    assertThat(server.stored.getSpec().getNodeName()).isEqualTo("n1");
  }

  @Test
  void aBindingThatLandedThoughItsAnswerTimedOutIsNotRefusedByItsRetry() {
    server.landsButAnswerIsLost();

    binder.bind(pod, "n1");

    assertThat(server.created).as("retried once, refused as already bound").hasSize(2);
    assertThat(server.reads).containsExactly("default/p");
    assertThat(server.stored.getSpec().getNodeName()).isEqualTo("n1");
  }

  @Test
  void aLastAttemptThatTimedOutCountsIfThePodIsBoundToTheNode() {
    server.timesOut(2);
    server.landsButAnswerIsLost();

    binder.bind(pod, "n1");

    assertThat(server.created).hasSize(3);
    assertThat(server.reads).containsExactly("default/p");
    assertThat(server.stored.getSpec().getNodeName()).isEqualTo("n1");
  }

  @Test
  void aPodBoundElsewhereFailsTheBindingWithItsConflict() {
    server.stored = boundTo(pod, "n2");

    assertThatThrownBy(() -> binder.bind(pod, "n1")).satisfies(e -> assertThat(code(e)).isEqualTo(409));
    assertThat(server.created).as("a conflict is not retried").hasSize(1);
    assertThat(server.stored.getSpec().getNodeName()).isEqualTo("n2");
  }

  @Test
  void aPodGoneFailsTheBindingAtOnce() {
    server.stored = null;

    assertThatThrownBy(() -> binder.bind(pod, "n1")).satisfies(e -> assertThat(code(e)).isEqualTo(404));
    assertThat(server.created).hasSize(1);
    assertThat(server.reads).isEmpty();
  }

  @Test
  void aNamesakeBoundToTheNodeIsNotThisPod() {
    Pod namesake = new PodBuilder(pod).editMetadata().withUid("another").endMetadata().build();
    server.stored = boundTo(namesake, "n1");

    assertThatThrownBy(() -> binder.bind(pod, "n1")).satisfies(e -> assertThat(code(e)).isEqualTo(409));
  }

  @Test
  void otherRefusalsFailAtOnceWithoutAReadBack() {
    server.refuses(403);

    assertThatThrownBy(() -> binder.bind(pod, "n1")).satisfies(e -> assertThat(code(e)).isEqualTo(403));
    assertThat(server.created).hasSize(1);
    assertThat(server.reads).isEmpty();
  }

  @Test
  void timeoutsWithThePodUnboundFailAfterThreeAttempts() {
    server.timesOut(3);

    assertThatThrownBy(() -> binder.bind(pod, "n1")).satisfies(e -> assertThat(code(e)).isZero());
    assertThat(server.created).hasSize(3);
    assertThat(server.reads).containsExactly("default/p");
    assertThat(server.stored.getSpec().getNodeName()).isNull();
  }

  @Test
  void aBindingThatCannotBeReadBackFailsThoughItMayHaveLanded() {
    server.timesOut(2);
    server.landsButAnswerIsLost();
    server.readsFail = true;

    // Unconfirmed, the pod's devices are given back rather than assumed in use.
    assertThatThrownBy(() -> binder.bind(pod, "n1")).satisfies(e -> assertThat(code(e)).isZero());
    assertThat(server.created).hasSize(3);
  }

  private static int code(Throwable e) {
    return ((KubernetesClientException) e).getCode();
  }

  private static Pod boundTo(Pod pod, String node) {
    return new PodBuilder(pod).editSpec().withNodeName(node).endSpec().build();
  }

  private static KubernetesClientException error(int code) {
    return new KubernetesClientException(code == 0 ? "timeout" : "refused", code, null);
  }

  /** How the server answers one coming create: an error, sent before or after the binding lands. */
  private record Answer(int code, boolean lands) {}

  /** One pod's binding subresource: 409 once bound, 404 once gone; some answers can be lost. */
  private final class ApiServer implements ApiBinder.BindingApi {
    Pod stored = pod;
    final List<Binding> created = new ArrayList<>();
    final List<String> reads = new ArrayList<>();
    boolean readsFail;
    private final Deque<Answer> answers = new ArrayDeque<>();

    void landsButAnswerIsLost() {
      answers.add(new Answer(0, true));
    }

    void timesOut(int times) {
      for (int i = 0; i < times; i++) {
        answers.add(new Answer(0, false));
      }
    }

    void refuses(int code) {
      answers.add(new Answer(code, false));
    }

    @Override
    public void create(Binding binding) {
      created.add(binding);
      Answer answer = answers.poll();
      if (answer != null && !answer.lands()) {
        throw error(answer.code());
      }
      if (stored == null) {
        throw error(404);
      }
      if (stored.getSpec().getNodeName() != null) {
        throw error(409);
      }
      stored = boundTo(stored, binding.getTarget().getName());
      if (answer != null) {
        throw error(answer.code());
      }
    }

    @Override
    public Pod read(String namespace, String name) {
      reads.add(namespace + "/" + name);
      if (readsFail) {
        throw error(0);
      }
      return stored;
    }
  }
}
