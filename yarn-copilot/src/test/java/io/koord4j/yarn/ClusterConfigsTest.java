package io.koord4j.yarn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterConfigsTest {
  @TempDir Path dir;

  @Test
  void yarnSiteIsTheDefaultClusterAndPrefixedSitesNameTheirs() throws Exception {
    site("yarn-site.xml", YarnConfiguration.RM_ADDRESS, "rm-default:8032");
    site("etl.yarn-site.xml", YarnConfiguration.RM_ADDRESS, "rm-etl:8032");
    site("etl.core-site.xml", "hadoop.security.authentication", "simple");

    Map<String, Configuration> clusters = ClusterConfigs.load(dir);

    assertThat(clusters).containsOnlyKeys("default", "etl");
    assertThat(clusters.get("default").get(YarnConfiguration.RM_ADDRESS)).isEqualTo("rm-default:8032");
    assertThat(clusters.get("etl").get(YarnConfiguration.RM_ADDRESS)).isEqualTo("rm-etl:8032");
  }

  @Test
  void aSilentResourceManagerIsGivenUpQuicklyUnlessTheSiteSaysOtherwise() throws Exception {
    site("yarn-site.xml", YarnConfiguration.RM_ADDRESS, "rm:8032");
    site("patient.yarn-site.xml", YarnConfiguration.RESOURCEMANAGER_CONNECT_MAX_WAIT_MS, "60000");

    Map<String, Configuration> clusters = ClusterConfigs.load(dir);

    assertThat(clusters.get("default").getLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_MAX_WAIT_MS, 0))
        .isEqualTo(ClusterConfigs.CONNECT_MAX_WAIT_MS);
    assertThat(clusters.get("patient").getLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_MAX_WAIT_MS, 0))
        .isEqualTo(60_000);
  }

  @Test
  void aFolderWithoutYarnSiteIsAnErrorThatSaysWhatIsMissing() {
    assertThatThrownBy(() -> ClusterConfigs.load(dir))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("HADOOP_CONF_DIR")
        .hasMessageContaining("yarn-site.xml or <cluster-id>.yarn-site.xml");
  }

  private void site(String file, String key, String value) throws Exception {
    Files.writeString(
        dir.resolve(file),
        "<configuration><property><name>" + key + "</name><value>" + value + "</value></property></configuration>");
  }
}
