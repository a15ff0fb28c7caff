package io.koord4j.bench;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * An application class-data archive (AppCDS) for koord-scheduler's JVM: much of a JVM's start is
 * loading and verifying classes, which an archive maps ready-made. The JVM archives classes from
 * jars only, so the class path's directories are packed into jars first; then a training run (the
 * scheduler under a throwaway name, stopped once it has listed the cluster) writes the archive as
 * it exits. The container image runs from one jar, where the same two options apply.
 */
final class ClassDataArchive {
  private ClassDataArchive() {}

  private static final Duration TRAINING_TIMEOUT = Duration.ofMinutes(3);

  /**
   * JVM options for koord-scheduler: a class path of jars and, if the training run wrote it, the
   * archive. They go after the default class path, which their {@code -cp} replaces.
   */
  static List<String> koordSchedulerOptions(KubernetesClient client) throws IOException, InterruptedException {
    Path dir = Path.of("target", "bench", "cds").toAbsolutePath();
    Files.createDirectories(dir);
    List<String> classPath = List.of("-cp", jarredClassPath(dir));
    Path archive = dir.resolve("koord-scheduler.jsa");
    Files.deleteIfExists(archive);
    List<String> training = new ArrayList<>(classPath);
    training.add("-XX:ArchiveClassesAtExit=" + archive);
    String name = "b4-cds-" + UUID.randomUUID().toString().substring(0, 6);
    try (SchedulerProcess scheduler = SchedulerProcess.koordScheduler(client, name, training)) {
      scheduler.awaitOutput("cluster listed", TRAINING_TIMEOUT);
    }
    if (!Files.exists(archive)) {
      System.out.println("[B4] no class-data archive was written; koord-scheduler starts without one");
      return classPath;
    }
    List<String> options = new ArrayList<>(classPath);
    options.add("-XX:SharedArchiveFile=" + archive);
    return options;
  }

  /** This process's class path with every directory replaced by a jar of its files. */
  private static String jarredClassPath(Path dir) throws IOException {
    List<String> entries = new ArrayList<>();
    String[] classPath = System.getProperty("java.class.path").split(File.pathSeparator);
    for (int i = 0; i < classPath.length; i++) {
      Path entry = Path.of(classPath[i]);
      if (Files.isDirectory(entry)) {
        Path jar = dir.resolve(i + ".jar");
        jar(entry, jar);
        entries.add(jar.toString());
      } else {
        entries.add(classPath[i]);
      }
    }
    return String.join(File.pathSeparator, entries);
  }

  private static void jar(Path directory, Path jar) throws IOException {
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
        Stream<Path> files = Files.walk(directory)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        out.putNextEntry(new JarEntry(directory.relativize(file).toString().replace(File.separatorChar, '/')));
        Files.copy(file, (OutputStream) out);
        out.closeEntry();
      }
    }
  }
}
