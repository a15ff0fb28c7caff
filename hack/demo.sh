#!/usr/bin/env bash
# The README's demo: a local cluster with four KWOK nodes, the sample quota tree and queues, the
# manager (with its admission webhook) running in the background, and 30 Jobs from four teams
# that queue, start as gangs when their quota allows, and finish. Queue and quota status is
# printed live until every Job is done; then the manager is stopped. The manager serves the
# dashboard meanwhile; its URL is printed once the manager is ready.
#
# Usage: hack/demo.sh            (JOBS=30 by default; MVN_FLAGS=-o to build offline)
#        HELM=1 hack/demo.sh     koord4j installed by Helm on the real node, from the local images,
#                                instead of the manager as a local process; uninstalled at the end
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CLUSTER="$ROOT/hack/local-cluster/cluster.sh"
JOBS=${JOBS:-30}
NAMESPACE=demo
HTTP_PORT=${HTTP_PORT:-18080}
WEBHOOK_PORT=${WEBHOOK_PORT:-19444}
LOG="$ROOT/queue-controller/target/demo-manager.log"
TEAMS=(research-nlp research-vision platform-batch platform-serving)

# The kubectl built with the cluster, whatever version the machine has on its PATH.
kubectl() { bash "$CLUSTER" kubectl "$@"; }

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

say "local cluster"
bash "$CLUSTER" up >/dev/null
export KUBECONFIG
KUBECONFIG=$(bash "$CLUSTER" kubeconfig)
bash "$CLUSTER" nodes --count 4 --cpu 32 --memory 128Gi

say "CRDs, sample quota tree and queues"
kubectl apply --server-side --force-conflicts -f "$ROOT/crds/manifests/" >/dev/null
kubectl apply --server-side --force-conflicts -f "$ROOT/samples/quota/" -f "$ROOT/samples/queues/" >/dev/null
kubectl get eq -n koordinator-system

start_local_manager() {
  say "building the manager"
  (cd "$ROOT" && mvn -B -q ${MVN_FLAGS:-} -pl queue-controller -am package -DskipTests -Dexec.skip)
  JAR=$(ls "$ROOT"/queue-controller/target/koord4j-manager-*-jar-with-dependencies.jar)

  say "starting the manager with its webhook (log: $LOG)"
  # Everything on loopback: the dashboard lists the whole cluster.
  KOORD4J_HTTP_ADDRESS=127.0.0.1 KOORD4J_HTTP_PORT=$HTTP_PORT KOORD4J_WEBHOOK_URL_HOST=127.0.0.1 KOORD4J_WEBHOOK_PORT=$WEBHOOK_PORT \
    java -jar "$JAR" --webhook --dashboard >"$LOG" 2>&1 &
  MANAGER=$!
  stop_manager() {
    kill "$MANAGER" 2>/dev/null && wait "$MANAGER" 2>/dev/null || true
    # The webhook fails closed while no replica serves it; the demo leaves the cluster as it was.
    kubectl delete mutatingwebhookconfiguration koord4j-mutating --ignore-not-found >/dev/null
    kubectl delete validatingwebhookconfiguration koord4j-validating --ignore-not-found >/dev/null
  }
  trap stop_manager EXIT
  until grep -q "admission loop started" "$LOG"; do
    kill -0 "$MANAGER" 2>/dev/null || { cat "$LOG"; exit 1; }
    sleep 1
  done
}

# The chart with the local cluster's values: the real node runs the manager and koord-scheduler
# from images built from this checkout.
install_with_helm() {
  # Global: the exit trap uses it after this function has returned.
  HELM_BIN=$(bash "$CLUSTER" tool helm)
  say "building the images and installing koord4j with Helm"
  (cd "$ROOT" && mvn -B -q ${MVN_FLAGS:-} -pl queue-controller,scheduler-plugins -am package -DskipTests -Dexec.skip)
  bash "$CLUSTER" node up
  bash "$CLUSTER" images load --tag demo
  # The manager's port in hack/local-cluster/helm-values.yaml.
  HTTP_PORT=18090
  "$HELM_BIN" upgrade --install koord4j "$ROOT/helm/koord4j" -n koord4j-system --create-namespace \
    -f "$ROOT/hack/local-cluster/helm-values.yaml" --set image.tag=demo --set manager.dashboard.enabled=true --wait --timeout 10m
  uninstall() { "$HELM_BIN" uninstall koord4j -n koord4j-system --wait >/dev/null || true; }
  trap uninstall EXIT
  until kubectl get lease koord4j-manager -n koord4j-system >/dev/null 2>&1; do sleep 1; done
}

if [[ ${HELM:-0} == 1 ]]; then install_with_helm; else start_local_manager; fi
until curl -sf "http://127.0.0.1:$HTTP_PORT/readyz" >/dev/null; do sleep 1; done
echo "manager ready"
echo "dashboard: http://127.0.0.1:$HTTP_PORT/ui  (quota tree, queues and why each job waits, GPU map)"

say "submitting $JOBS Jobs across ${#TEAMS[@]} teams"
kubectl delete namespace "$NAMESPACE" --ignore-not-found --wait=true >/dev/null
kubectl create namespace "$NAMESPACE" >/dev/null
# A job may use only a quota bound to its namespace: the demo's jobs name every team's leaf.
kubectl annotate --overwrite -n koordinator-system elasticquotas.scheduling.sigs.k8s.io "${TEAMS[@]}" \
  "quota.scheduling.koordinator.sh/namespaces=[\"$NAMESPACE\"]" >/dev/null
for i in $(seq 1 "$JOBS"); do
  team=${TEAMS[$((i % ${#TEAMS[@]}))]}
  pods=$((1 + i % 4))
  cpu=$((4 + (i % 3) * 2))
  seconds=$((5 + i % 6))
  cat <<YAML
apiVersion: batch/v1
kind: Job
metadata:
  name: $team-$i
  namespace: $NAMESPACE
  labels:
    quota.scheduling.koordinator.sh/name: $team
spec:
  parallelism: $pods
  completions: $pods
  template:
    metadata:
      annotations:
        pod-complete.stage.kwok.x-k8s.io/delay: "${seconds}s"
    spec:
      restartPolicy: Never
      containers:
      - name: work
        image: busybox
        resources:
          requests:
            cpu: "$cpu"
            memory: 4Gi
---
YAML
done | kubectl apply -f - >/dev/null
echo "submitted; each asks 1-4 pods of 4-8 CPUs, together more than the 128 CPUs of the nodes"

say "queue and quota status, live"
while true; do
  phases=$(kubectl get qu -n "$NAMESPACE" -o jsonpath='{range .items[*]}{.status.phase}{"\n"}{end}' | sort | uniq -c | xargs)
  echo "--- $(date +%T)  units: ${phases:-none}"
  kubectl get eq -n koordinator-system --no-headers \
    -o custom-columns='QUOTA:.metadata.name,USED-CPU:.status.used.cpu,RUNTIME:.metadata.annotations.quota\.scheduling\.koordinator\.sh/runtime' \
    | sed 's/^/    /'
  done_count=$(kubectl get qu -n "$NAMESPACE" -o jsonpath='{range .items[*]}{.status.phase}{"\n"}{end}' | grep -cE '^(Succeed|Failed)$' || true)
  [ "$done_count" -ge "$JOBS" ] && break
  sleep 3
done

say "all $JOBS Jobs finished"
kubectl get jobs -n "$NAMESPACE" --no-headers | awk '{print $2}' | sort | uniq -c
curl -s "http://127.0.0.1:$HTTP_PORT/metrics" | grep -E '^koord4j_admission_latency_seconds_(count|sum)' || true
