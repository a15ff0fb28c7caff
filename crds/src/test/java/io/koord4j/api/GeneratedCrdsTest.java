package io.koord4j.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.CustomResource;
import io.koord4j.testing.LocalCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The CRD YAML committed for kubectl and Helm is exactly what the model classes generate. */
class GeneratedCrdsTest {
  static final List<String> COMMITTED_DIRS = List.of("crds/manifests", "helm/koord4j/crds");
  static final String HOW_TO_REFRESH = "run crds/refresh-manifests.sh and commit the result";

  /**
   * Where the CRD generator wrote its files during this build (the module's output folder, also
   * when integration tests run against the packaged jar).
   */
  static Path generatedDir() {
    return LocalCluster.repoRoot().resolve("crds/target/classes/META-INF/fabric8");
  }

  static List<String> crdFileNames(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .map(f -> f.getFileName().toString())
          .filter(name -> name.endsWith("-v1.yml"))
          .sorted()
          .toList();
    }
  }

  @Test
  void everyModelClassHasAGeneratedCrd() throws IOException {
    List<String> expected =
        Manifests.MODEL_CLASSES.stream()
            .map(type -> CustomResource.getCRDName(type) + "-v1.yml")
            .sorted()
            .toList();
    assertThat(crdFileNames(generatedDir())).isEqualTo(expected);
  }

  @Test
  void committedCopiesMatchTheGeneratedCrds() throws IOException {
    Path generated = generatedDir();
    List<String> names = crdFileNames(generated);
    for (String dir : COMMITTED_DIRS) {
      Path committed = LocalCluster.repoRoot().resolve(dir);
      assertThat(Files.isDirectory(committed) ? crdFileNames(committed) : List.of())
          .as("CRD files in %s; %s", dir, HOW_TO_REFRESH)
          .isEqualTo(names);
      for (String name : names) {
        assertThat(Files.readString(committed.resolve(name)))
            .as("%s/%s differs from the generated CRD; %s", dir, name, HOW_TO_REFRESH)
            .isEqualTo(Files.readString(generated.resolve(name)));
      }
    }
  }
}
