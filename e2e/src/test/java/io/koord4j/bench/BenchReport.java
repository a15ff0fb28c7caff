package io.koord4j.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where benchmarks leave their Markdown reports: {@code target/bench/<id>.md}. */
final class BenchReport {
  private BenchReport() {}

  /** Prints the report and writes it to {@code target/bench/<id>.md}. */
  static void write(String id, String markdown) throws IOException {
    Path file = Path.of("target", "bench", id + ".md");
    Files.createDirectories(file.getParent());
    Files.writeString(file, markdown);
    System.out.println(markdown);
    System.out.println(id + " report written to " + file.toAbsolutePath());
  }
}
