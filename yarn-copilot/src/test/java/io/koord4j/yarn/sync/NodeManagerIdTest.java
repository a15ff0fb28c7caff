package io.koord4j.yarn.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class NodeManagerIdTest {
  @Test
  void readsHostAndPortAndDefaultsTheCluster() {
    NodeManagerId id = NodeManagerId.parse(null, "nm-0.hadoop.svc:8041");

    assertThat(id).isEqualTo(new NodeManagerId("default", "nm-0.hadoop.svc", 8041));
    assertThat(id.nodeId()).isEqualTo("nm-0.hadoop.svc:8041");
    assertThat(NodeManagerId.parse("etl", "h:1").clusterId()).isEqualTo("etl");
  }

  @Test
  void rejectsWhatIsNotHostColonPortNamingTheAnnotation() {
    for (String bad : new String[] {null, "", "host", "host:", ":8041", "host:port", "host:0", "host:70000"}) {
      assertThatThrownBy(() -> NodeManagerId.parse(null, bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("yarn.hadoop.apache.org/node-id")
          .hasMessageContaining("<host>:<port>");
    }
  }
}
