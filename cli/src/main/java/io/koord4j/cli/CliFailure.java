package io.koord4j.cli;

/** A failure the user can act on: its message is printed as is and the process exits with its code. */
final class CliFailure extends RuntimeException {
  /** No API server answers: kubeconfig, context or network. */
  static final int NO_CLUSTER = 3;
  /** The API server does not serve koord4j's kinds: the CRDs are not installed. */
  static final int NO_CRDS = 4;
  /** The object asked for does not exist. */
  static final int NOT_FOUND = 5;
  /** Objects to read are malformed: the message names the object, the field and the rule. */
  static final int INVALID_INPUT = 6;

  private final int exitCode;

  CliFailure(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  int exitCode() {
    return exitCode;
  }
}
