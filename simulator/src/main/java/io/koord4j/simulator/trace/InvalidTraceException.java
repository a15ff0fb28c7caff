package io.koord4j.simulator.trace;

/** A trace file that cannot be read: names the file, the line, the column and the rule. */
public final class InvalidTraceException extends RuntimeException {
  public InvalidTraceException(String message) {
    super(message);
  }
}
