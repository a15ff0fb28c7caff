package io.koord4j.yarn.sync;

/**
 * What a ResourceManager reports of one NodeManager.
 *
 * @param id the NodeManager
 * @param running whether the ResourceManager counts it as RUNNING, the only state in which it
 *     accepts a new total
 * @param total its total capability
 * @param used what YARN containers hold on it
 */
public record NodeManagerReport(NodeManagerId id, boolean running, YarnResources total, YarnResources used) {}
