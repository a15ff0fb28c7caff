package io.koord4j.api.queue;

import com.fasterxml.jackson.annotation.JsonInclude;

/** Backoff bookkeeping: how often the unit was requeued and when it may try again. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RequeueState {
  private Integer count;
  private String requeueAt;

  public Integer getCount() {
    return count;
  }

  public void setCount(Integer count) {
    this.count = count;
  }

  public String getRequeueAt() {
    return requeueAt;
  }

  public void setRequeueAt(String requeueAt) {
    this.requeueAt = requeueAt;
  }
}
