package io.koord4j.probes;

import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;

/**
 * Options of a vert.x instance that serves no files: without a file cache and class-path
 * resolving, vert.x makes no cache directory in the working directory, which a container's
 * read-only root would refuse.
 */
public final class ContainerVertxOptions {
  private ContainerVertxOptions() {}

  public static VertxOptions create() {
    return new VertxOptions()
        .setFileSystemOptions(
            new FileSystemOptions().setFileCachingEnabled(false).setClassPathResolvingEnabled(false));
  }
}
