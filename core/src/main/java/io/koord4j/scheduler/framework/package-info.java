/**
 * The scheduling framework: plain Java over plain values, no client calls.
 *
 * <p>One pod's attempt runs the extension points in this order, carrying a {@link
 * io.koord4j.scheduler.framework.CycleState} from point to point:
 *
 * <ol>
 *   <li><b>PreFilter</b>: pod-level checks (gang size, quota) before any node is looked at;
 *   <li><b>Filter</b>: per node, in parallel; the rejections become the pod's "0/N nodes are
 *       available" message ({@link io.koord4j.scheduler.framework.FitError});
 *   <li><b>PostFilter</b>: only when no node fits;
 *   <li><b>Score</b>: per feasible node, normalised to 0..100 and weighted;
 *   <li><b>Reserve</b> / <b>Unreserve</b>: claim and give back what the pod will use;
 *   <li><b>Permit</b>: allow, reject or hold the pod ({@link
 *       io.koord4j.scheduler.framework.WaitingPods});
 *   <li><b>PreBind</b> and <b>Bind</b>: on a binding thread, after Permit allows.
 * </ol>
 *
 * A plugin implements the interfaces of the points it takes part in and nothing else.
 */
package io.koord4j.scheduler.framework;
