/**
 * Hierarchical elastic quota, shared by the scheduler's ElasticQuota plugin and the queue
 * controller's admission core. Pure Java over plain values: no Kubernetes types, no I/O.
 *
 * <ul>
 *   <li>{@link io.koord4j.quota.QuotaTree} validates {@link io.koord4j.quota.QuotaSpec}s and holds
 *       the tree shape.
 *   <li>{@link io.koord4j.quota.QuotaLedger} records pending and used amounts, derives request
 *       and runtime quota, and answers whether a unit is admissible.
 *   <li>{@link io.koord4j.quota.ReclaimPlanner} picks the borrowers' units to preempt when a
 *       lender's demand returns.
 * </ul>
 *
 * <h2>Integer rounding</h2>
 *
 * All amounts are whole base units (milli-CPU, bytes, counts) and all arithmetic is exact
 * integer arithmetic; rounding happens only where an amount is split in proportion to weights:
 *
 * <ul>
 *   <li>scaling mins down ({@code min * total / sumMin}) and sharing a remainder by shared
 *       weight both use the largest-remainder method: everyone gets the floor of their exact
 *       share, and the few units left go one each to the largest fractional parts, ties to the
 *       quota whose name sorts first. The parts always sum to the amount split;
 *   <li>a quota never receives more than its limited request in a sharing round; its surplus is
 *       split again among the still-hungry quotas, so rounding never strands units while someone
 *       is hungry;
 *   <li>what is left when nobody is hungry stays unassigned with the parent.
 * </ul>
 *
 * <h2>Resources a quota does not govern</h2>
 *
 * A quota governs the resources named in its max (the root governs all). A child's max may only
 * name resources its parent's max names, so a resource left out is ungoverned in the whole
 * subtree: it is not limited there, the runtime split skips those quotas, and it is still
 * counted in the used amounts and checked at the ancestors that govern it.
 */
package io.koord4j.quota;
