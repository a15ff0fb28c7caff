package io.koord4j.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;

/** A RayJob as a generic resource, typed only so that it can be watched by kind. */
@Group("ray.io")
@Version("v1")
@Kind("RayJob")
public final class RayJob extends GenericKubernetesResource implements Namespaced {}
