/**
 * What the queue holds and why a job waits, as people read it: the quota tree with its figures,
 * queue summaries, queued jobs in queue order, a job's blocking constraint and the GPU map. Pure
 * functions over the API objects; the kubectl plugin prints them and the manager's dashboard
 * serves them, so both tell the same story.
 */
package io.koord4j.visibility;
