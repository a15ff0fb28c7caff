package io.koord4j.simulator.trace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * Reads the CSV format of Alibaba's GPU cluster trace (2023): nodes with {@code
 * sn,cpu_milli,memory_mib,gpu,model} and tasks with {@code
 * name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,...,creation_time,deletion_time,scheduled_time}.
 * Only {@code name,cpu_milli,memory_mib,num_gpu,gpu_milli} are in every published task file (the
 * multi-GPU variants have no other column), so {@link #taskShapes} needs no other column; {@link
 * #tasks} also needs {@code creation_time}. Tasks may add {@code queue} and {@code priority}
 * columns; without them all tasks share the queue {@value #DEFAULT_QUEUE} at priority 0. They may
 * also add {@code pods} (a gang of that many pods of the row's shape, default 1) and {@code
 * expected_runtime} (seconds the submitter expects the task to run, as a job's {@code
 * activeDeadlineSeconds}; default unknown).
 */
public final class TraceCsv {
  public static final String DEFAULT_QUEUE = "default";

  private TraceCsv() {}

  public static List<NodeSpec> nodes(Path file) {
    return rows(file, (row, line) -> new NodeSpec(
        row.text("sn"),
        row.number("cpu_milli"),
        row.number("memory_mib"),
        (int) row.number("gpu"),
        blankToNull(row.optional("model", ""))));
  }

  /** Tasks with their times, for a replay: a file without {@code creation_time} is refused. */
  public static List<TaskSpec> tasks(Path file) {
    return rows(file, (row, line) -> task(row));
  }

  /** What each task asks for, for workload inflation, which needs no time column. */
  public static List<TaskShape> taskShapes(Path file) {
    return rows(file, (row, line) -> shape(row));
  }

  private static TaskShape shape(Row row) {
    int gpuCount = (int) row.number("num_gpu");
    long gpuMilli = gpuCount == 0 ? 0 : row.number("gpu_milli");
    if (gpuCount > 0 && (gpuMilli < 1 || gpuMilli > 1000 || (gpuCount > 1 && gpuMilli != 1000))) {
      throw row.invalid("gpu_milli", gpuMilli + "", "must be 1..1000 for one GPU and 1000 for several");
    }
    String spec = row.optional("gpu_spec", "");
    Set<String> models = spec.isBlank() ? Set.of() : Set.copyOf(Arrays.asList(spec.split("\\|")));
    return new TaskShape(row.number("cpu_milli"), row.number("memory_mib"), gpuCount, (int) gpuMilli, models);
  }

  private static TaskSpec task(Row row) {
    TaskShape shape = shape(row);
    long creation = row.number("creation_time", "replay needs it, as the time each task arrives");
    long deletion = row.optionalNumber("deletion_time", Long.MAX_VALUE);
    long scheduled = row.optionalNumber("scheduled_time", creation);
    long pods = row.optionalNumber("pods", 1);
    if (pods < 1 || pods > Integer.MAX_VALUE) {
      throw row.invalid("pods", pods + "", "must be at least 1");
    }
    return new TaskSpec(
        row.text("name"),
        shape,
        creation,
        deletion,
        scheduled,
        row.optional("queue", DEFAULT_QUEUE),
        (int) row.optionalNumber("priority", 0),
        (int) pods,
        row.optionalNumber("expected_runtime", 0));
  }

  private static String blankToNull(String value) {
    return value.isBlank() || value.equals("nan") ? null : value;
  }

  private static <T> List<T> rows(Path file, BiFunction<Row, Integer, T> parse) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    }
    if (lines.isEmpty()) {
      throw new InvalidTraceException(file + ": empty, a header line is required");
    }
    Map<String, Integer> columns = new HashMap<>();
    String[] header = lines.get(0).split(",", -1);
    for (int i = 0; i < header.length; i++) {
      columns.put(header[i].trim(), i);
    }
    List<T> parsed = new ArrayList<>();
    for (int i = 1; i < lines.size(); i++) {
      if (!lines.get(i).isBlank()) {
        parsed.add(parse.apply(new Row(file, i + 1, columns, lines.get(i).split(",", -1)), i + 1));
      }
    }
    return parsed;
  }

  /** One line of a CSV file, its cells by column name. */
  private record Row(Path file, int line, Map<String, Integer> columns, String[] cells) {

    String text(String column) {
      return text(column, "");
    }

    /** @param need why the column is needed, for the error when it is missing; empty when plain */
    String text(String column, String need) {
      Integer index = columns.get(column);
      if (index == null) {
        throw new InvalidTraceException(
            file + ": column " + column + " is missing from the header" + (need.isEmpty() ? "" : "; " + need));
      }
      String value = index < cells.length ? cells[index].trim() : "";
      if (value.isEmpty()) {
        throw invalid(column, value, "must not be empty");
      }
      return value;
    }

    String optional(String column, String fallback) {
      Integer index = columns.get(column);
      String value = index == null || index >= cells.length ? "" : cells[index].trim();
      return value.isEmpty() ? fallback : value;
    }

    long number(String column) {
      return number(column, "");
    }

    long number(String column, String need) {
      return parse(column, text(column, need));
    }

    long optionalNumber(String column, long fallback) {
      String value = optional(column, "");
      return value.isEmpty() ? fallback : parse(column, value);
    }

    private long parse(String column, String value) {
      try {
        long parsed = Long.parseLong(value);
        if (parsed < 0) {
          throw invalid(column, value, "must not be negative");
        }
        return parsed;
      } catch (NumberFormatException e) {
        throw invalid(column, value, "must be a whole number");
      }
    }

    InvalidTraceException invalid(String column, String value, String rule) {
      return new InvalidTraceException(
          file + " line " + line + ": " + column + " '" + value + "' " + rule);
    }
  }
}
