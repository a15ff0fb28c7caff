package io.koord4j.manager.dashboard;

import java.util.Map;

/**
 * How the dashboard is served, from the environment.
 *
 * @param allowedHosts the Host names it answers to besides loopback's ({@code
 *     KOORD4J_DASHBOARD_ALLOWED_HOSTS}, separated by commas; the chart gives the manager's Service
 *     names)
 */
public record DashboardSettings(HostAllowList allowedHosts) {
  public static DashboardSettings from(Map<String, String> env) {
    return new DashboardSettings(HostAllowList.of(env.getOrDefault("KOORD4J_DASHBOARD_ALLOWED_HOSTS", "")));
  }
}
