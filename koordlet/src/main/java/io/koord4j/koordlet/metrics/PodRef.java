package io.koord4j.koordlet.metrics;

import io.koord4j.koordlet.cgroup.KubeQos;

/** What the collector needs of a pod to find its cgroup. */
public record PodRef(String uid, String namespace, String name, KubeQos kubeQos) {}
