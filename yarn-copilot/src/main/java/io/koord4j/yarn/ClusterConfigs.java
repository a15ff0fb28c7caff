package io.koord4j.yarn;

import io.koord4j.yarn.sync.NodeManagerId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * The YARN clusters the copilot serves, from one Hadoop configuration folder as Koordinator's
 * copilot reads it: {@code yarn-site.xml} (with {@code core-site.xml}) for NodeManager pods that name
 * no cluster, and {@code <cluster-id>.yarn-site.xml} (with {@code <cluster-id>.core-site.xml}) for
 * those annotated {@code yarn.hadoop.apache.org/cluster-id: <cluster-id>}. ResourceManager HA (
 * {@code yarn.resourcemanager.ha.rm-ids}) is configured there and handled by Hadoop's client.
 */
final class ClusterConfigs {
  static final String YARN_SITE = "yarn-site.xml";
  static final String CORE_SITE = "core-site.xml";

  /** How long one call waits for a ResourceManager that does not answer, unless the site sets it. */
  static final long CONNECT_MAX_WAIT_MS = 5_000;

  static final long CONNECT_RETRY_INTERVAL_MS = 500;

  private ClusterConfigs() {}

  /** Every cluster configured in {@code dir}, by cluster id. */
  static Map<String, Configuration> load(Path dir) {
    Map<String, Configuration> clusters = new TreeMap<>();
    try (Stream<Path> files = Files.list(dir)) {
      files
          .map(file -> file.getFileName().toString())
          .filter(name -> name.endsWith(YARN_SITE))
          .forEach(name -> clusters.put(clusterId(name), load(dir, name.substring(0, name.length() - YARN_SITE.length()))));
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read the Hadoop configuration folder " + dir, e);
    }
    if (clusters.isEmpty()) {
      throw new IllegalArgumentException(
          "HADOOP_CONF_DIR "
              + dir
              + " holds no YARN cluster: it needs yarn-site.xml or <cluster-id>.yarn-site.xml");
    }
    return clusters;
  }

  private static String clusterId(String yarnSite) {
    return yarnSite.equals(YARN_SITE)
        ? NodeManagerId.DEFAULT_CLUSTER
        : yarnSite.substring(0, yarnSite.length() - YARN_SITE.length() - 1);
  }

  private static Configuration load(Path dir, String prefix) {
    Configuration conf = new YarnConfiguration(new Configuration(false));
    Path core = dir.resolve(prefix + CORE_SITE);
    if (Files.exists(core)) {
      conf.addResource(new org.apache.hadoop.fs.Path(core.toUri()));
    }
    conf.addResource(new org.apache.hadoop.fs.Path(dir.resolve(prefix + YARN_SITE).toUri()));
    // Hadoop's defaults wait 15 minutes for a ResourceManager; one silent cluster must not stall a round that long.
    setUnlessConfigured(conf, YarnConfiguration.RESOURCEMANAGER_CONNECT_MAX_WAIT_MS, CONNECT_MAX_WAIT_MS);
    setUnlessConfigured(
        conf, YarnConfiguration.RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS, CONNECT_RETRY_INTERVAL_MS);
    return conf;
  }

  private static void setUnlessConfigured(Configuration conf, String key, long value) {
    String[] sources = conf.getPropertySources(key);
    boolean onlyDefault =
        sources == null || Stream.of(sources).allMatch(source -> source.endsWith("-default.xml"));
    if (onlyDefault) {
      conf.setLong(key, value);
    }
  }
}
