package io.koord4j.api.queue;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Objects;

/** One waiting queue unit and its place in the line. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class QueueItemDetail {
  private String name;
  private String namespace;
  private Integer priority;
  private Integer position;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getNamespace() {
    return namespace;
  }

  public void setNamespace(String namespace) {
    this.namespace = namespace;
  }

  public Integer getPriority() {
    return priority;
  }

  public void setPriority(Integer priority) {
    this.priority = priority;
  }

  public Integer getPosition() {
    return position;
  }

  public void setPosition(Integer position) {
    this.position = position;
  }

  /** Equal when every field is: the manager compares a queue's list with the one it last published. */
  @Override
  public boolean equals(Object other) {
    return other instanceof QueueItemDetail detail
        && Objects.equals(name, detail.name)
        && Objects.equals(namespace, detail.namespace)
        && Objects.equals(priority, detail.priority)
        && Objects.equals(position, detail.position);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, namespace, priority, position);
  }
}
