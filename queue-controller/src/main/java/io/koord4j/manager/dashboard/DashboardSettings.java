package io.koord4j.manager.dashboard;

import java.util.Map;

/**
 * How the dashboard is served, from the environment.
 *
 * @param allowedHosts the Host names it answers to besides loopback's ({@code
 *     KOORD4J_DASHBOARD_ALLOWED_HOSTS}, separated by commas; the chart gives the manager's Service
 *     names)
 * @param authentication serve the lists only to requests with a bearer token whose user may list
 *     QueueUnits in every namespace ({@code KOORD4J_DASHBOARD_AUTHENTICATION=true}; see {@link
 *     TokenAccess}): the manager's account then needs {@code create} on {@code tokenreviews} and
 *     {@code subjectaccessreviews}
 */
public record DashboardSettings(HostAllowList allowedHosts, boolean authentication) {
  public static DashboardSettings from(Map<String, String> env) {
    return new DashboardSettings(
        HostAllowList.of(env.getOrDefault("KOORD4J_DASHBOARD_ALLOWED_HOSTS", "")),
        Boolean.parseBoolean(env.getOrDefault("KOORD4J_DASHBOARD_AUTHENTICATION", "false")));
  }
}
