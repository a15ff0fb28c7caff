package io.koord4j.kueue;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.probes.NativeTlsClientFactory;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the Kueue admission check controller on its own, against the cluster of the usual client
 * configuration (KUBECONFIG or in-cluster); settings as in {@link CheckSettings#from}.
 */
public final class KueueCheckMain {
  private KueueCheckMain() {}

  public static void main(String[] args) throws InterruptedException {
    CountDownLatch stopped = new CountDownLatch(1);
    KubernetesClient client = NativeTlsClientFactory.client();
    KueueAdmissionCheckController<?> controller = KueueAdmissionCheckController.start(client);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      controller.close();
      client.close();
      stopped.countDown();
    }));
    stopped.await();
  }
}
