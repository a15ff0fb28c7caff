package io.koord4j.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.utils.Serialization;
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
 * The README and docs/ name what exists, and document what the code reads: every environment
 * variable a koord4j process or script reads is documented, so a user can find each setting
 * without reading the code; and every test class, variable, flag, port, Helm value and Maven
 * profile the documentation names exists in the code, the scripts or the chart, so that no page
 * cites a test that is gone or a setting that was renamed.
 */
class DocumentedSettingsTest {
  /** {@code "KOORD4J_..."} literals and the scheduler's {@code env("NAME", default)} reads. */
  private static final Pattern JAVA_VARIABLE =
      Pattern.compile("\"(KOORD4J_[A-Z0-9_]+)\"|\\benv\\(\"([A-Z][A-Z0-9_]*)\"");

  /** {@code ${NAME:-default}}: the variables a script lets its caller set. */
  private static final Pattern SCRIPT_VARIABLE = Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*):-");

  private static final Path ROOT = LocalCluster.repoRoot();

  /** A test class in backticks: {@code `ChaosIT`}, {@code `QuotaTreeTest`}. */
  private static final Pattern TEST_CLASS = Pattern.compile("`([A-Z][A-Za-z0-9]*(?:IT|Test))`");

  /** koord4j's own variables, wherever the documentation names them. */
  private static final Pattern DOCUMENTED_VARIABLE = Pattern.compile("\\b((?:KOORD4J|KOORDLET)_[A-Z0-9_]*[A-Z0-9])\\b");

  /** A long flag: {@code --extender-port}, not the middle of {@code a--b}. */
  private static final Pattern FLAG = Pattern.compile("(?<![\\w-])(--[a-z][a-z0-9]*(?:-[a-z0-9]+)*)");

  /** koordlet's flags, read by name without their dashes: {@code value(flags, env, "http-port", ...)}. */
  private static final Pattern KOORDLET_FLAG = Pattern.compile("\\(flags, env, \"([a-z][a-z0-9-]*)\"");

  /** A port: after a host, after the word port, after a {@code _PORT} variable or a port flag. */
  private static final Pattern PORT =
      Pattern.compile(
          "(?:127\\.0\\.0\\.1|localhost):(\\d{2,5})\\b"
              + "|\\bports? \\(?`?(\\d{2,5})\\b"
              + "|_PORT`? \\((\\d{2,5})\\)"
              + "|_PORT` \\| (\\d{2,5})\\b"
              + "|--[a-z-]*port[ =](\\d{2,5})\\b");

  /** A row of a table whose first column is headed {@code port}: {@code | 19443, 18443 | Kueue |}. */
  private static final Pattern PORT_ROW = Pattern.compile("^\\| ([0-9][0-9, ]*) \\|");

  /** A Helm value in backticks, maybe set: {@code `manager.dashboard.enabled`}, {@code `--set image.tag=<tag>`}. */
  private static final Pattern HELM_VALUE =
      Pattern.compile(
          "`(?:--set )?((?:image|networking|manager|scheduler|koordlet|yarnCopilot|kueue|securityContext|javaEnv|sampleQuotaTree)"
              + "(?:\\.[A-Za-z]+)+)(?:=[^`]*)?`");

  /** A Maven profile: {@code -Psoak}. */
  private static final Pattern PROFILE = Pattern.compile("(?<![\\w-])-P([a-z]+)\\b");

  /**
   * Flags of other programs that the documentation quotes: Helm, kubectl, Maven, the JDK's tools,
   * pip and the kubelet. Every other flag is koord4j's and must be in its code or scripts.
   */
  private static final Set<String> OTHER_PROGRAMS_FLAGS =
      Set.of("--create-namespace", "--set", "--server-side", "--force-conflicts", "--wait", "--timeout",
          "--ignore-not-found", "--events", "--node-ip", "--cloud-provider", "--build-arg",
          // kubectl create clusterrole / clusterrolebinding
          "--verb", "--resource", "--clusterrole", "--serviceaccount");

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

  @Test
  void everyTestClassTheDocumentationNamesExists() throws IOException {
    Set<String> classes = new TreeSet<>();
    for (Path file : files(ROOT, ".java")) {
      if (file.toString().contains("/src/test/java/")) {
        String name = file.getFileName().toString();
        classes.add(name.substring(0, name.length() - ".java".length()));
      }
    }
    Set<String> named = matches(TEST_CLASS, documentation());

    assertThat(named).contains("ChaosIT", "HelmInstallIT", "QuotaTreeTest");
    assertThat(difference(named, classes))
        .as("test classes named in README.md or under docs/ that no test source defines")
        .isEmpty();
  }

  @Test
  void everyVariableTheDocumentationNamesIsRead() throws IOException {
    String code = code();
    Set<String> named = matches(DOCUMENTED_VARIABLE, documentation());

    assertThat(named).contains("KOORD4J_HTTP_PORT", "KOORDLET_HTTP_PORT");
    assertThat(named.stream().filter(name -> !code.contains(name)))
        .as("variables named in README.md or under docs/ that neither code, scripts nor chart read")
        .isEmpty();
  }

  @Test
  void everyFlagTheDocumentationNamesIsTakenByAKoord4jProgram() throws IOException {
    Set<String> known = new TreeSet<>(OTHER_PROGRAMS_FLAGS);
    for (Path file : files(ROOT, ".java")) {
      if (file.toString().contains("/src/main/java/")) {
        String source = Files.readString(file);
        known.addAll(matches(Pattern.compile("\"(--[a-z][a-z0-9-]*)\""), source));
        matches(KOORDLET_FLAG, source).forEach(flag -> known.add("--" + flag));
      }
    }
    for (Path dir : List.of(ROOT.resolve("hack"), ROOT.resolve("helm"))) {
      for (Path file : files(dir, "")) {
        known.addAll(matches(FLAG, Files.readString(file)));
      }
    }
    Set<String> named = matches(FLAG, documentation());

    assertThat(named).contains("--extender-port", "--http-port", "--quota-namespace", "--variant");
    assertThat(difference(named, known))
        .as("flags named in README.md or under docs/ that no koord4j program, script or chart takes")
        .isEmpty();
  }

  @Test
  void everyPortTheDocumentationNamesIsInTheCodeScriptsOrChart() throws IOException {
    Set<String> numbers = matches(Pattern.compile("(?<![\\w.])(\\d{2,5})(?![\\w.])"), code());
    Set<String> named = new TreeSet<>();
    for (Path doc : documents()) {
      String text = Files.readString(doc);
      named.addAll(matches(PORT, text));
      boolean portTable = false;
      for (String line : text.lines().toList()) {
        if (line.startsWith("| port |")) {
          portTable = true;
        } else if (!line.startsWith("|")) {
          portTable = false;
        } else if (portTable) {
          Matcher row = PORT_ROW.matcher(line);
          if (row.find()) {
            for (String port : row.group(1).split(",")) {
              named.add(port.strip());
            }
          }
        }
      }
    }

    assertThat(named).contains("8080", "9443", "10251", "10262", "16443", "19443", "9316");
    assertThat(difference(named, numbers))
        .as("ports named in README.md or under docs/ that appear in no code, script or chart")
        .isEmpty();
  }

  @Test
  void everyHelmValueTheDocumentationNamesIsInTheChartsValues() throws IOException {
    JsonNode values = Serialization.yamlMapper().readTree(ROOT.resolve("helm/koord4j/values.yaml").toFile());
    Set<String> named = matches(HELM_VALUE, documentation());

    assertThat(named).contains("manager.dashboard.enabled", "image.repository");
    assertThat(named.stream().filter(path -> {
      JsonNode node = values;
      for (String key : path.split("\\.")) {
        node = node.path(key);
      }
      return node.isMissingNode();
    }))
        .as("Helm values named in README.md or under docs/ that helm/koord4j/values.yaml does not define")
        .isEmpty();
  }

  @Test
  void everyMavenProfileTheDocumentationNamesIsDefined() throws IOException {
    Set<String> profiles = new TreeSet<>();
    for (Path pom : files(ROOT, "pom.xml")) {
      profiles.addAll(matches(Pattern.compile("<profile>\\s*<id>([a-z]+)</id>"), Files.readString(pom)));
    }
    Set<String> named = matches(PROFILE, documentation());

    assertThat(named).contains("soak", "chaos", "bench");
    assertThat(difference(named, profiles)).as("Maven profiles named in the documentation but defined in no pom.xml").isEmpty();
  }

  @Test
  void theReadmesFirstJobIsTheSampleJobTheTestsApply() throws IOException {
    String readme = Files.readString(ROOT.resolve("README.md"));
    String heading = "# samples/jobs/job.yaml\n";
    assertThat(readme).contains(heading);
    String quoted = readme.substring(readme.indexOf(heading) + heading.length());
    quoted = quoted.substring(0, quoted.indexOf("```"));
    String sample =
        Files.readString(ROOT.resolve("samples/jobs/job.yaml")).lines()
            .filter(line -> !line.startsWith("#"))
            .map(line -> line + "\n")
            .reduce("", String::concat);

    assertThat(quoted).as("the job README.md quotes, without the file's comments").isEqualTo(sample);
  }

  /** What the documentation may cite: code of every module, scripts, the chart, Dockerfile and CI. */
  private static String code() throws IOException {
    StringBuilder text = new StringBuilder();
    for (Path file : files(ROOT, ".java")) {
      if (file.toString().contains("/src/main/java/")) {
        text.append(Files.readString(file)).append('\n');
      }
    }
    for (Path dir : List.of(ROOT.resolve("hack"), ROOT.resolve("helm"))) {
      for (Path file : files(dir, "")) {
        text.append(Files.readString(file)).append('\n');
      }
    }
    text.append(Files.readString(ROOT.resolve("Dockerfile"))).append(Files.readString(ROOT.resolve(".ci/run")));
    return text.toString();
  }

  private static List<Path> documents() throws IOException {
    List<Path> docs = new java.util.ArrayList<>(List.of(ROOT.resolve("README.md")));
    docs.addAll(files(ROOT.resolve("docs"), ".md"));
    return docs;
  }

  private static Set<String> difference(Set<String> named, Set<String> existing) {
    Set<String> missing = new TreeSet<>(named);
    missing.removeAll(existing);
    return missing;
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
      return all.filter(Files::isRegularFile)
          .filter(f -> f.toString().endsWith(suffix))
          .filter(f -> !f.toString().contains("/.git/") && !f.toString().contains("/node_modules/"))
          .filter(f -> !f.toString().contains("/target/") && !f.toString().contains("/.run/"))
          .toList();
    }
  }

  private static Set<String> matches(Pattern pattern, Path file) {
    try {
      return matches(pattern, Files.readString(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Each match's first group that matched. */
  private static Set<String> matches(Pattern pattern, String text) {
    Set<String> names = new TreeSet<>();
    Matcher m = pattern.matcher(text);
    while (m.find()) {
      for (int group = 1; group <= m.groupCount(); group++) {
        if (m.group(group) != null) {
          names.add(m.group(group));
          break;
        }
      }
    }
    return names;
  }
}
