package io.koord4j.device;

/** A pod's GPU requests or device annotations break a rule; the message names field and rule. */
public class InvalidDeviceSpecException extends IllegalArgumentException {
  public InvalidDeviceSpecException(String message) {
    super(message);
  }
}
