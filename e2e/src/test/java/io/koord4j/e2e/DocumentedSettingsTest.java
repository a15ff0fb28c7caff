package io.koord4j.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.koord4j.testing.LocalCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every environment variable a koord4j process or script reads is documented in the README or
 * under docs/, so a user can find each setting without reading the code.
 */
class DocumentedSettingsTest {
  /** {@code "KOORD4J_..."} literals and the scheduler's {@code env("NAME", default)} reads. */
  private static final Pattern JAVA_VARIABLE =
      Pattern.compile("\"(KOORD4J_[A-Z0-9_]+)\"|\\benv\\(\"([A-Z][A-Z0-9_]*)\"");

  /** {@code ${NAME:-default}}: the variables a script lets its caller set. */
  private static final Pattern SCRIPT_VARIABLE = Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*):-");

  private static final Path ROOT = LocalCluster.repoRoot();

  @Test
  void everyVariableTheCodeReadsIsDocumented() throws IOException {
    Set<String> variables = new TreeSet<>();
    for (Path file : files(ROOT, ".java")) {
      if (file.toString().contains("/src/main/java/")) {
        variables.addAll(matches(JAVA_VARIABLE, file));
      }
    }
    for (Path file : files(ROOT.resolve("hack"), ".sh")) {
      variables.addAll(matches(SCRIPT_VARIABLE, file));
    }
    String docs = documentation();

    assertThat(variables).contains("KOORD4J_NAMESPACE", "SCHEDULER_NAME", "KOORD4J_CACHE");
    assertThat(variables.stream().filter(name -> !docs.contains(name)))
        .as("variables read by the code but named neither in README.md nor under docs/")
        .isEmpty();
  }

  private static String documentation() throws IOException {
    StringBuilder text = new StringBuilder(Files.readString(ROOT.resolve("README.md")));
    for (Path doc : files(ROOT.resolve("docs"), ".md")) {
      text.append(Files.readString(doc));
    }
    return text.toString();
  }

  private static List<Path> files(Path dir, String suffix) throws IOException {
    try (Stream<Path> all = Files.walk(dir)) {
      return all.filter(f -> f.toString().endsWith(suffix))
          .filter(f -> !f.toString().contains("/target/") && !f.toString().contains("/.run/"))
          .toList();
    }
  }

  private static Set<String> matches(Pattern pattern, Path file) {
    Set<String> names = new TreeSet<>();
    try {
      Matcher m = pattern.matcher(Files.readString(file));
      while (m.find()) {
        names.add(m.group(1) != null ? m.group(1) : m.group(2));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return names;
  }
}
