package io.koord4j.scheduler.kube;

import static io.koord4j.scheduler.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.Test;

/** Binding against an API server that times out, and whose timed-out bindings may have landed. */
class ApiBinderTest {
  private final Pod pod = pod("p", "1", "1Gi");
  private final ApiServer server = new ApiServer();
  private final ApiBinder binder = new ApiBinder(server, Duration.ZERO);

  @Test
  void aBindingThatLandedThoughItsAnswerTimedOutIsNotRefusedByItsRetry() {
    server.landsButTimesOut();

    binder.bind(pod, "n1");

    assertThat(server.creates).as("retried once, refused as already bound").isEqualTo(2);
    assertThat(server.stored.getSpec().getNodeName()).isEqualTo("n1");
  }

  @Test
  void aLastAttemptThatTimedOutCountsIfThePodIsBoundToTheNode() {
    server.landsButTimesOut();
    server.landsButTimesOut();
    server.landsButTimesOut();

    binder.bind(pod, "n1");
  }

  @Test
  void aPodBoundElsewhereOrGoneFailsTheBinding() {
    server.stored = boundTo(pod, "n2");
    assertThatThrownBy(() -> binder.bind(pod, "n1"))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));

    server.stored = null;
    assertThatThrownBy(() -> binder.bind(pod, "n1"))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(404));
  }

  @Test
  void aNamesakeBoundToTheNodeIsNotThisPod() {
    Pod namesake = new PodBuilder(pod).editMetadata().withUid("another").endMetadata().build();
    server.stored = boundTo(namesake, "n1");

    assertThatThrownBy(() -> binder.bind(pod, "n1")).isInstanceOf(KubernetesClientException.class);
  }

  @Test
  void timeoutsWithThePodUnboundFailAfterThreeAttempts() {
    server.timesOut(3);

    assertThatThrownBy(() -> binder.bind(pod, "n1")).isInstanceOf(KubernetesClientException.class);
    assertThat(server.creates).isEqualTo(3);
    assertThat(server.stored.getSpec().getNodeName()).isNull();
  }

  private static Pod boundTo(Pod pod, String node) {
    return new PodBuilder(pod).editSpec().withNodeName(node).endSpec().build();
  }

  /** One pod's binding subresource: 409 once bound, 404 once gone; some answers can be lost. */
  private final class ApiServer implements ApiBinder.BindingApi {
    Pod stored = pod;
    int creates;
    /** Per coming create: whether it lands before its answer is lost (true), or is lost unseen (false). */
    private final Deque<Boolean> timeouts = new ArrayDeque<>();

    void landsButTimesOut() {
      timeouts.add(true);
    }

    void timesOut(int times) {
      for (int i = 0; i < times; i++) {
        timeouts.add(false);
      }
    }

    @Override
    public void create(Binding binding) {
      creates++;
      Boolean timeout = timeouts.poll();
      if (Boolean.FALSE.equals(timeout)) {
        throw new KubernetesClientException("timeout", 0, null);
      }
      if (stored == null) {
        throw new KubernetesClientException("pods \"p\" not found", 404, null);
      }
      if (stored.getSpec().getNodeName() != null) {
        throw new KubernetesClientException("pod p is already assigned to node", 409, null);
      }
      stored = boundTo(stored, binding.getTarget().getName());
      if (timeout != null) {
        throw new KubernetesClientException("timeout", 0, null);
      }
    }

    @Override
    public Pod read(String namespace, String name) {
      return stored;
    }
  }
}
