package io.koord4j.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;

/** A TFJob as a generic resource, typed only so that it can be watched by kind. */
@Group("kubeflow.org")
@Version("v1")
@Kind("TFJob")
public final class TFJob extends GenericKubernetesResource implements Namespaced {}
