package io.koord4j.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;

/** A SparkApplication as a generic resource, typed only so that it can be watched by kind. */
@Group("sparkoperator.k8s.io")
@Version("v1beta2")
@Kind("SparkApplication")
public final class SparkApplication extends GenericKubernetesResource implements Namespaced {}
