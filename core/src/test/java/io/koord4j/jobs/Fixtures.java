package io.koord4j.jobs;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Job manifests from {@code src/test/resources/jobs}. */
final class Fixtures {
  private Fixtures() {}

  static Job job(String name) {
    return load(name, Job.class);
  }

  /** A manifest of any kind, e.g. a generic resource typed by its adapter. */
  static <T> T load(String name, Class<T> type) {
    String resource = "/jobs/" + name + ".yaml";
    try (InputStream yaml = Fixtures.class.getResourceAsStream(resource)) {
      if (yaml == null) {
        throw new IllegalArgumentException("no fixture " + resource);
      }
      return Serialization.unmarshal(yaml, type);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
