package io.koord4j.koordlet.device;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** nvidia-smi reports from the tool itself, or from a directory of saved ones. */
public final class NvidiaSmiCommand {
  private NvidiaSmiCommand() {}

  /** Runs {@code nvidia-smi -q -x} and {@code nvidia-smi topo -m} on the host. */
  public static NvidiaInventory.Reports live() {
    return new NvidiaInventory.Reports() {
      @Override
      public String query() {
        return run(List.of("nvidia-smi", "-q", "-x"));
      }

      @Override
      public String topology() {
        return run(List.of("nvidia-smi", "topo", "-m"));
      }
    };
  }

  /** {@code query.xml} and {@code topo.txt} saved from the two commands. */
  public static NvidiaInventory.Reports saved(Path directory) {
    return new NvidiaInventory.Reports() {
      @Override
      public String query() {
        return read(directory.resolve("query.xml"));
      }

      @Override
      public String topology() {
        return read(directory.resolve("topo.txt"));
      }
    };
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the saved nvidia-smi report " + file, e);
    }
  }

  private static String run(List<String> command) {
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
      }
      return output;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + String.join(" ", command), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + command, e);
    }
  }
}
