package io.koord4j.quota;

import java.util.List;

/** Thrown when quota specs break a tree rule; the message lists every violation. */
public final class InvalidQuotaTreeException extends IllegalArgumentException {

  private final List<String> violations;

  public InvalidQuotaTreeException(List<String> violations) {
    super("invalid quota tree: " + String.join("; ", violations));
    this.violations = List.copyOf(violations);
  }

  /** One message per broken rule, each naming the quota and the rule. */
  public List<String> violations() {
    return violations;
  }
}
