package io.koord4j.manager;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.kueue.KueueAdmissionCheckController;

/** The leader's work when koord4j serves Kueue as an AdmissionCheck: gang feasibility only. */
final class KueueCheckControllers implements LeaderControllers {
  private final KubernetesClient client;
  private KueueAdmissionCheckController<?> controller;

  KueueCheckControllers(KubernetesClient client) {
    this.client = client;
  }

  @Override
  public void start() {
    controller = KueueAdmissionCheckController.start(client);
  }

  @Override
  public void close() {
    if (controller != null) {
      controller.close();
    }
  }
}
