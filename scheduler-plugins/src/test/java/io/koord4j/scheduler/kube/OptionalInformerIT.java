package io.koord4j.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.koord4j.testing.LocalCluster;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An informer on a resource whose CRD is not installed: it is ready at once with no objects, and
 * sees the objects once the CRD is created. The CRD belongs to this test alone.
 */
class OptionalInformerIT {

  /** A resource of this test only; its CRD exists only while {@link #crdAppears} runs. */
  @Group("optionalinformer.test.koord4j.io")
  @Version("v1")
  public static final class Gadget extends CustomResource<Void, Void> implements Namespaced {}

  private static final String CRD = "gadgets.optionalinformer.test.koord4j.io";

  private KubernetesClient client;
  private String namespace;
  private OptionalInformer<Gadget> informer;

  @BeforeEach
  void connect() {
    client = LocalCluster.client();
    deleteCrd();
    namespace = "optional-informer-" + UUID.randomUUID().toString().substring(0, 8);
    client
        .resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
        .create();
  }

  @AfterEach
  void cleanUp() {
    if (informer != null) {
      informer.informer().close();
    }
    deleteCrd();
    client.namespaces().withName(namespace).delete();
    client.close();
  }

  @Test
  void aMissingCrdIsReadyAndEmptyThenItsObjectsArriveOnceItIsInstalled() {
    List<String> seen = new CopyOnWriteArrayList<>();
    informer = OptionalInformer.start(client, Gadget.class, recording(seen));

    informer.ready().orTimeout(60, TimeUnit.SECONDS).join();
    assertThat(informer.informer().getStore().list()).isEmpty();

    installCrd();
    Gadget gadget = new Gadget();
    gadget.getMetadata().setName("first");
    gadget.getMetadata().setNamespace(namespace);
    client.resource(gadget).create();

    await().atMost(Duration.ofMinutes(2)).until(() -> seen.contains(namespace + "/first"));
  }

  private static ResourceEventHandler<Gadget> recording(List<String> seen) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(Gadget gadget) {
        seen.add(gadget.getMetadata().getNamespace() + "/" + gadget.getMetadata().getName());
      }

      @Override
      public void onUpdate(Gadget old, Gadget gadget) {}

      @Override
      public void onDelete(Gadget gadget, boolean finalStateUnknown) {}
    };
  }

  private void installCrd() {
    CustomResourceDefinition crd =
        new CustomResourceDefinitionBuilder()
            .withNewMetadata()
            .withName(CRD)
            .endMetadata()
            .withNewSpec()
            .withGroup("optionalinformer.test.koord4j.io")
            .withScope("Namespaced")
            .withNewNames()
            .withKind("Gadget")
            .withPlural("gadgets")
            .withSingular("gadget")
            .endNames()
            .addNewVersion()
            .withName("v1")
            .withServed(true)
            .withStorage(true)
            .withNewSchema()
            .withOpenAPIV3Schema(
                new JSONSchemaPropsBuilder()
                    .withType("object")
                    .withXKubernetesPreserveUnknownFields(true)
                    .build())
            .endSchema()
            .endVersion()
            .endSpec()
            .build();
    client.resource(crd).create();
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .withName(CRD)
        .waitUntilCondition(LocalCluster::isEstablished, 60, TimeUnit.SECONDS);
  }

  private void deleteCrd() {
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .withName(CRD)
        .withTimeout(60, TimeUnit.SECONDS)
        .delete();
  }
}
