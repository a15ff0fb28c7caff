package io.koord4j.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;

/** A Workflow as a generic resource, typed only so that it can be watched by kind. */
@Group("argoproj.io")
@Version("v1alpha1")
@Kind("Workflow")
public final class Workflow extends GenericKubernetesResource implements Namespaced {}
