package io.koord4j.bench;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Samples of the Prometheus text format, as the API server and koord4j's processes expose them on
 * {@code /metrics}.
 */
final class PrometheusText {
  /** One sample: a metric name, its labels and its value. */
  record Sample(String name, Map<String, String> labels, double value) {
    String label(String key) {
      return labels.getOrDefault(key, "");
    }

    /** Whether the other sample is of the same series: the same name and labels. */
    boolean sameSeries(Sample other) {
      return name.equals(other.name) && labels.equals(other.labels);
    }
  }

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final List<Sample> samples;

  private PrometheusText(List<Sample> samples) {
    this.samples = samples;
  }

  /** The API server's metrics now. */
  static PrometheusText apiServer(KubernetesClient client) {
    return parse(client.raw("/metrics"));
  }

  /** The metrics of a koord4j process on this machine, from its probe port. */
  static PrometheusText scrape(int port) throws IOException, InterruptedException {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException("GET /metrics on port " + port + " answered " + response.statusCode());
    }
    return parse(response.body());
  }

  static PrometheusText parse(String text) {
    List<Sample> samples = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (!line.isBlank() && !line.startsWith("#")) {
        samples.add(sample(line));
      }
    }
    return new PrometheusText(samples);
  }

  /** The sum of the named metric's samples whose labels pass {@code filter}. */
  double sum(String name, Predicate<Sample> filter) {
    return samples.stream()
        .filter(sample -> sample.name().equals(name) && filter.test(sample))
        .mapToDouble(Sample::value)
        .sum();
  }

  List<Sample> samples(String name) {
    return samples.stream().filter(sample -> sample.name().equals(name)).toList();
  }

  private static Sample sample(String line) {
    int brace = line.indexOf('{');
    int space = line.lastIndexOf(' ');
    Map<String, String> labels = new LinkedHashMap<>();
    String name;
    if (brace < 0 || brace > space) {
      name = line.substring(0, line.indexOf(' '));
    } else {
      name = line.substring(0, brace);
      readLabels(line.substring(brace + 1, line.lastIndexOf('}')), labels);
    }
    return new Sample(name, labels, number(line.substring(space + 1).strip()));
  }

  /** A value or bound: a decimal, {@code +Inf}, {@code -Inf} or {@code NaN}. */
  static double number(String text) {
    return switch (text) {
      case "+Inf" -> Double.POSITIVE_INFINITY;
      case "-Inf" -> Double.NEGATIVE_INFINITY;
      default -> Double.parseDouble(text);
    };
  }

  /** {@code a="x",b="y"}: values are quoted and may hold escaped quotes and commas. */
  private static void readLabels(String text, Map<String, String> labels) {
    int at = 0;
    while (at < text.length()) {
      int equals = text.indexOf('=', at);
      String key = text.substring(at, equals).strip();
      StringBuilder value = new StringBuilder();
      int i = equals + 2;
      for (; text.charAt(i) != '"'; i++) {
        char c = text.charAt(i);
        if (c == '\\') {
          c = text.charAt(++i);
          value.append(c == 'n' ? '\n' : c);
        } else {
          value.append(c);
        }
      }
      labels.put(key, value.toString());
      at = i + 1;
      while (at < text.length() && (text.charAt(at) == ',' || text.charAt(at) == ' ')) {
        at++;
      }
    }
  }
}
