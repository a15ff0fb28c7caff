#!/usr/bin/env bash
# A real Kubernetes control plane on 127.0.0.1, built from upstream Go modules:
# etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kwok (fake nodes), Kueue on demand, and one
# real node (kubelet, containerd, runc) on demand.
# Usage: see USAGE below, or run cluster.sh without arguments.
set -euo pipefail

USAGE="usage: cluster.sh COMMAND
  build [all]            the control plane's binaries (all: every binary any command uses)
  prebuild               build all in the background, at a low priority
  tool NAME              build a tool if needed and print its path (kubectl, helm, kueue, ...)
  up [--with-node]       start the control plane (and the real node)
  down | status          stop everything and remove its state | what runs
  restart COMPONENT      restart etcd, kube-apiserver, kube-scheduler or kube-controller-manager
  logs COMPONENT         a component's log
  nodes [--count N --cpu C --memory M --gpus G --gpu-model X --prefix P --pods N]   KWOK nodes
  node build|up|down|status          the real node
  images load [--tag T]  koord4j's images from this checkout's jars, into the real node
  kueue up|down|crds     Kueue (or its CRDs alone)
  jobs crds|up|down      the job kinds' CRDs (up: and their operators)
  kubeconfig | pid PROCESS | kubectl ARGS..."

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
K8S_VERSION=${K8S_VERSION:-1.35.4}
ETCD_VERSION=3.6.16
KWOK_VERSION=0.8.0
HELM_VERSION=3.21.4
KUEUE_VERSION=0.17.0
# Job kinds koord4j queues: where their upstream CRDs come from (the module proxy lists none of
# these modules' versions, but serves these pinned ones). All their operators run here.
TRAINING_OPERATOR_VERSION=1.9.3
MPI_OPERATOR_VERSION=0.8.0
SPARK_OPERATOR_VERSION=2.5.0
ARGO_WORKFLOWS_VERSION=3.5.13
KUBERAY_VERSION=1.4.0
# The Spark release of the Spark Operator's image: its spark-submit comes from PyPI's pyspark.
SPARK_VERSION=4.0.1
# The real node's runtime and pod network.
CONTAINERD_VERSION=2.4.2
CNI_PLUGINS_VERSION=1.10.0
CACHE=${KOORD4J_CACHE:-$HOME/.cache/koord4j/cluster}
BIN=$CACHE/bin
# One cluster per machine: its state lives outside any checkout, so every clone reuses it.
RUN=${KOORD4J_CLUSTER_STATE:-$CACHE/state}
PKI=$RUN/pki
LOGS=$RUN/logs
PIDS=$RUN/pids
KUBECONFIG_FILE=$RUN/kubeconfig
# The fixed, gitignored path in this checkout where tests and users find the kubeconfig.
LOCAL_KUBECONFIG=$HERE/.run/kubeconfig

ETCD_PORT=23790
ETCD_PEER_PORT=23800
ETCD_METRICS_PORT=23810
APISERVER_PORT=16443
KCM_PORT=10257
SCHEDULER_PORT=10259
KWOK_PORT=10247
KUEUE_WEBHOOK_PORT=19443
KUEUE_METRICS_PORT=18443
KUEUE_HEALTH_PORT=18081
RAY_OPERATOR_METRICS_PORT=18082
RAY_OPERATOR_HEALTH_PORT=18083
TRAINING_OPERATOR_METRICS_PORT=18084
TRAINING_OPERATOR_HEALTH_PORT=18085
TRAINING_OPERATOR_WEBHOOK_PORT=19445
# The MPI Operator serves its health check on this port of every address; it has no flag to move it.
MPI_OPERATOR_HEALTH_PORT=8080
ARGO_CONTROLLER_METRICS_PORT=18086
# Argo's workflow controller serves its health check on this port of every address, without a flag.
ARGO_CONTROLLER_HEALTH_PORT=6060
SPARK_OPERATOR_HEALTH_PORT=18087
# The training operator serves its webhook with the certificate it finds here (in a pod, its Secret).
TRAINING_OPERATOR_CERTS=/tmp/k8s-webhook-server/serving-certs
KUEUE_METRICS_CERTS=/etc/kueue/metrics/certs
APISERVER=https://127.0.0.1:$APISERVER_PORT
REPO=$(cd "$HERE/../.." && pwd)

export CGO_ENABLED=0 GOFLAGS="-trimpath -buildvcs=false"

log() { printf '[local-cluster] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
kubectl() { "$BIN/kubectl" --kubeconfig "$KUBECONFIG_FILE" "$@"; }

# ---------------------------------------------------------------- build

# Builds a set of binaries unless the cache holds every one of them, built from the same inputs:
# build_one <set> <version> <wrapper folder or ""> "<binaries>" <command...>. The stamp of a set
# is the hash of what the binaries are made from: the version, the wrapper module's go.mod and
# go.sum, the Go release, the build settings and the command's own text (its flags). A lock per
# set makes a second caller wait for the first one's build instead of building it again beside it.
build_one() {
  local name=$1 version=$2 wrapper=$3 binaries=$4; shift 4
  local stamp=$BIN/.$name.stamp key lock start
  key=$(build_key "$version" "$wrapper" "$@")
  is_built "$stamp" "$key" $binaries && return 0
  mkdir -p "$BIN"
  exec {lock}>"$BIN/.$name.lock"
  flock "$lock"
  if ! is_built "$stamp" "$key" $binaries; then
    log "building $name $version ..."
    start=$SECONDS
    "$@"
    echo "$key" >"$stamp"
    log "built $name $version in $((SECONDS - start)) s"
    printf '%s\t%s\t%s\t%d\n' "$(date -u +%FT%TZ)" "$name" "$version" "$((SECONDS - start))" >>"$CACHE/build-times.tsv"
  fi
  exec {lock}>&-
}

build_key() {
  local version=$1 wrapper=$2; shift 2
  {
    echo "$version"
    go env GOVERSION
    echo "CGO_ENABLED=$CGO_ENABLED GOFLAGS=$GOFLAGS"
    echo "$*"
    declare -f "$1" version_ldflags 2>/dev/null || true
    if [[ -n $wrapper ]]; then cat "$HERE/$wrapper/go.mod" "$HERE/$wrapper/go.sum"; fi
  } | sha256sum | cut -c1-32
}

# is_built <stamp> <key> <binaries...>: the stamp matches and every binary of the set is there.
is_built() {
  local stamp=$1 key=$2 binary; shift 2
  [[ -f $stamp && $(<"$stamp") == "$key" ]] || return 1
  for binary; do [[ -x $BIN/$binary ]] || return 1; done
}

version_ldflags() {
  local minor flags="-s -w" pkg
  minor=$(cut -d. -f2 <<<"$K8S_VERSION")
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    flags+=" -X $pkg.gitVersion=v$K8S_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor -X $pkg.gitTreeState=clean"
  done
  echo "$flags"
}

build_kubernetes() {
  (cd "$HERE/kubernetes" && go build -ldflags "$(version_ldflags)" -o "$BIN/" \
    k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager \
    k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubectl)
}

build_etcd() { (cd "$HERE/etcd" && go build -ldflags "-s -w" -o "$BIN/etcd" go.etcd.io/etcd/server/v3); }
# Builds a tool of a wrapper module, for modules that the proxy does not list (go install pkg@version
# then fails): build_tool <wrapper folder> <package> <binary>
build_tool() { (cd "$HERE/$1" && go build -ldflags "-s -w" -o "$BIN/$3" "$2"); }
go_install() { GOBIN=$BIN go install -ldflags "-s -w" "$1"; }

# What the control plane runs; everything else is built by the first command that uses it.
build_control_plane() {
  build_one kubernetes "$K8S_VERSION" kubernetes "kube-apiserver kube-controller-manager kube-scheduler kubectl" \
    build_kubernetes
  build_one etcd "$ETCD_VERSION" etcd etcd build_etcd
  build_one kwok "$KWOK_VERSION" "" kwok go_install "sigs.k8s.io/kwok/cmd/kwok@v$KWOK_VERSION"
}

build_helm() { build_one helm "$HELM_VERSION" "" helm go_install "helm.sh/helm/v3/cmd/helm@v$HELM_VERSION"; }
build_kueue() { build_one kueue "$KUEUE_VERSION" "" kueue go_install "sigs.k8s.io/kueue/cmd/kueue@v$KUEUE_VERSION"; }

# tool <name>: builds a tool of the cache if needed and prints its path.
cmd_tool() {
  case ${1:-} in
    kube-apiserver | kube-controller-manager | kube-scheduler | kubectl | etcd | kwok) build_control_plane ;;
    helm) build_helm ;;
    kueue) build_kueue ;;
    *) die "usage: cluster.sh tool kubectl|helm|kueue|kube-apiserver|kube-controller-manager|kube-scheduler|etcd|kwok" ;;
  esac
  echo "$BIN/$1"
}

cmd_build() {
  local start=$SECONDS
  build_control_plane
  # The background build: the control plane is what the first tests wait for; the rest takes only
  # the CPU the tests leave (nice 19), so that it does not slow those that measure time.
  [[ ${2:-} == --rest-niced ]] && renice -n 19 -p $$ >/dev/null
  if [[ ${1:-} == all ]]; then
    build_kueue
    build_operators
    build_helm
    node_build
  fi
  log "binaries ready in $BIN ($((SECONDS - start)) s)"
}

# Starts `build all` in the background, all but the control plane at a low priority, so that what
# later tests use is ready when they come; a build already under way, here or by a caller, is
# waited for through its lock.
cmd_prebuild() {
  mkdir -p "$CACHE"
  (close_inherited_fds; exec setsid nohup flock -n "$CACHE/.prebuild.lock" bash "$HERE/cluster.sh" build all --rest-niced) \
    </dev/null >>"$CACHE/prebuild.log" 2>&1 &
  log "building the cluster's binaries in the background (log: $CACHE/prebuild.log)"
}

# Source folder of an upstream Go module in the module cache (for CRDs and stage files).
module_dir() { (cd "$HERE/etcd" && go mod download -json "$1" | sed -n 's/.*"Dir": "\(.*\)",/\1/p'); }

# ---------------------------------------------------------------- PKI

# Signs a certificate with the local CA: issue_cert <name> <subject> <subjectAltName or ""> <extendedKeyUsage>
issue_cert() {
  local name=$1 subject=$2 san=$3 eku=$4
  [[ -f $PKI/$name.crt ]] && return 0
  openssl req -new -newkey rsa:2048 -nodes -keyout "$PKI/$name.key" -subj "$subject" \
    -out "$PKI/$name.csr" 2>/dev/null
  {
    echo "basicConstraints=CA:FALSE"
    echo "keyUsage=digitalSignature,keyEncipherment"
    echo "extendedKeyUsage=$eku"
    [[ -n $san ]] && echo "subjectAltName=$san"
  } >"$PKI/$name.ext"
  openssl x509 -req -in "$PKI/$name.csr" -CA "$PKI/ca.crt" -CAkey "$PKI/ca.key" -CAcreateserial \
    -days 3650 -sha256 -extfile "$PKI/$name.ext" -out "$PKI/$name.crt" 2>/dev/null
}

make_pki() {
  mkdir -p "$PKI"
  if [[ ! -f $PKI/ca.crt ]]; then
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=koord4j-local-ca" \
      -keyout "$PKI/ca.key" -out "$PKI/ca.crt" 2>/dev/null
  fi
  issue_cert apiserver "/CN=kube-apiserver" \
    "IP:127.0.0.1,IP:10.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local" \
    serverAuth
  issue_cert admin "/O=system:masters/CN=kubernetes-admin" "IP:127.0.0.1,DNS:localhost" serverAuth,clientAuth
  issue_cert kueue-webhook "/CN=kueue-webhook" "IP:127.0.0.1,DNS:localhost" serverAuth
  # The API server's identity towards kubelets (logs, exec, port-forward on the real node).
  issue_cert apiserver-kubelet-client "/O=system:masters/CN=kube-apiserver-kubelet-client" "" clientAuth
  if [[ ! -f $PKI/sa.key ]]; then
    openssl genrsa -out "$PKI/sa.key" 2048 2>/dev/null
    openssl rsa -in "$PKI/sa.key" -pubout -out "$PKI/sa.pub" 2>/dev/null
  fi
}

# A kubeconfig for the local API server with the client certificate <name>.crt: kubeconfig_for <name>
kubeconfig_for() {
  local ca cert key
  ca=$(base64 -w0 <"$PKI/ca.crt"); cert=$(base64 -w0 <"$PKI/$1.crt"); key=$(base64 -w0 <"$PKI/$1.key")
  cat <<EOF
apiVersion: v1
kind: Config
clusters:
- name: local
  cluster:
    server: $APISERVER
    certificate-authority-data: $ca
users:
- name: $1
  user:
    client-certificate-data: $cert
    client-key-data: $key
contexts:
- name: local
  context: {cluster: local, user: $1, namespace: default}
current-context: local
EOF
}

write_kubeconfig() { kubeconfig_for admin >"$KUBECONFIG_FILE"; }

# ---------------------------------------------------------------- processes

pid_of() { [[ -f $PIDS/$1.pid ]] && cat "$PIDS/$1.pid"; }
# A recorded pid counts only while it is still a process: after its process exits, the number
# may be reused as a thread of another process, which kill -0 would accept.
is_running() {
  local pid
  pid=$(pid_of "$1") && [[ -n $pid ]] \
    && [[ $(awk '/^Tgid:/ {print $2}' "/proc/$pid/status" 2>/dev/null) == "$pid" ]]
}

# Starts a detached process that outlives this script (and the Maven build that ran it), in the
# cluster's state folder: not in the caller's, which may be a checkout removed while it runs (the
# Spark Operator's spark-submit then fails to start).
start() {
  local name=$1; shift
  if is_running "$name"; then return 0; fi
  mkdir -p "$LOGS" "$PIDS"
  (close_inherited_fds; cd "$RUN"; exec setsid nohup "$@") </dev/null >"$LOGS/$name.log" 2>&1 &
  echo $! >"$PIDS/$name.pid"
}

# A long-lived process must not keep the caller's open files: a lock the caller holds (flock), or
# the pipe of a build that waits for its output to end.
close_inherited_fds() {
  local fd
  for fd in /proc/$BASHPID/fd/*; do
    fd=${fd##*/}
    ((fd > 2)) && eval "exec $fd>&-" 2>/dev/null
  done
  return 0
}

answers() {
  curl -fsS --max-time 2 --cacert "$PKI/ca.crt" --cert "$PKI/admin.crt" --key "$PKI/admin.key" -k "$1" >/dev/null 2>&1
}

# An operator left running by an earlier start may have stopped answering (its API server was
# restarted under it): it is replaced, not waited for.
replace_unanswering() {
  local name=$1 url=$2
  if is_running "$name" && ! answers "$url"; then
    log "$name runs but does not answer at $url; restarting it"
    stop "$name"
  fi
}

# Waits for a health URL; on failure names the component and shows the tail of its log.
wait_healthy() {
  local name=$1 url=$2 timeout=${3:-60} deadline=$((SECONDS + ${3:-60}))
  while ((SECONDS < deadline)); do
    if answers "$url"; then return 0; fi
    if ! is_running "$name"; then break; fi
    sleep 0.3
  done
  log "$name did not become healthy at $url within ${timeout} s; last lines of $LOGS/$name.log:"
  tail -n 30 "$LOGS/$name.log" >&2 || true
  exit 1
}

# KWOK plays every pod's stages (Running, then Succeeded) with one pool of workers, each making one
# status patch at a time. With KWOK's default of 4, pods bound at 30-50 a second on a busy API
# server waited seconds for their turn, where the kubelets of real nodes work side by side.
# KWOK_POD_WORKERS sets the pool. A configuration given in a file is not defaulted, so it names
# KWOK's defaults for the other options.
kwok_config() {
  cat <<EOF
apiVersion: config.kwok.x-k8s.io/v1alpha1
kind: KwokConfiguration
options:
  podPlayStageParallelism: ${KWOK_POD_WORKERS:-16}
  nodePlayStageParallelism: 4
  nodeLeaseParallelism: 4
  podsOnNodeSyncParallelism: 1
  enableDebuggingHandlers: true
  enableProfilingHandler: true
  enableContentionProfiling: false
  enablePodsOnNodeSyncListPager: true
  enablePodsOnNodeSyncStreamWatch: false
EOF
  kwok_stages
}

kwok_stages() {
  local dir stage
  dir=$(module_dir "sigs.k8s.io/kwok@v$KWOK_VERSION")/kustomize/stage
  for stage in node/fast/node-initialize node/heartbeat-with-lease/node-heartbeat-with-lease \
    pod/fast/pod-ready pod/fast/pod-delete; do
    echo "---"
    cat "$dir/$stage.yaml"
  done
  echo "---"
  # Job pods complete at once, or after the duration in their pod-complete delay annotation
  # (e.g. "2s"), so tests and benchmarks can give jobs a run time.
  awk '/^  next:/ && !done {
         print "  delay:"
         print "    durationMilliseconds: 0"
         print "    durationFrom:"
         print "      expressionFrom: '\''.metadata.annotations[\"pod-complete.stage.kwok.x-k8s.io/delay\"]'\''"
         done = 1
       } { print }' "$dir/pod/fast/pod-complete.yaml"
}

start_etcd() {
  start etcd "$BIN/etcd" --name local --data-dir "$RUN/etcd" \
    --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
    --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
    --initial-cluster "local=http://127.0.0.1:$ETCD_PEER_PORT" --unsafe-no-fsync --quota-backend-bytes=8589934592 \
    --listen-metrics-urls "http://127.0.0.1:$ETCD_METRICS_PORT"
  wait_healthy etcd "http://127.0.0.1:$ETCD_PORT/health"
}

# Requests of koord4j's own ServiceAccounts (the Helm-installed components) are audited at
# Metadata level, so tests can compare what each identity uses with what its RBAC grants;
# everything else is not audited, to keep the API server fast under benchmarks.
audit_policy() {
  cat <<EOF
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: Metadata
  userGroups: ["system:serviceaccounts:koord4j-system"]
- level: None
EOF
}

start_apiserver() {
  mkdir -p "$LOGS"
  audit_policy >"$RUN/audit-policy.yaml"
  start kube-apiserver "$BIN/kube-apiserver" \
    --etcd-servers "http://127.0.0.1:$ETCD_PORT" \
    --bind-address 127.0.0.1 --advertise-address 127.0.0.1 --secure-port "$APISERVER_PORT" \
    --tls-cert-file "$PKI/apiserver.crt" --tls-private-key-file "$PKI/apiserver.key" \
    --client-ca-file "$PKI/ca.crt" \
    --service-account-issuer https://kubernetes.default.svc.cluster.local \
    --service-account-key-file "$PKI/sa.pub" --service-account-signing-key-file "$PKI/sa.key" \
    --service-cluster-ip-range 10.0.0.0/24 \
    --authorization-mode Node,RBAC --allow-privileged=true \
    --enable-admission-plugins NodeRestriction \
    --kubelet-client-certificate "$PKI/apiserver-kubelet-client.crt" \
    --kubelet-client-key "$PKI/apiserver-kubelet-client.key" \
    --kubelet-preferred-address-types InternalIP,Hostname \
    --audit-policy-file "$RUN/audit-policy.yaml" --audit-log-path "$LOGS/audit.log" \
    --audit-log-maxsize 200 --audit-log-maxbackup 2 \
    --endpoint-reconciler-type none \
    --max-requests-inflight 2000 --max-mutating-requests-inflight 1000
  wait_healthy kube-apiserver "$APISERVER/readyz" 120
}

# A saturated test machine can delay kwok's node heartbeats past the default 50 s grace period; the
# node lifecycle controller would then taint fake nodes unreachable in the middle of a test.
start_controller_manager() {
  start kube-controller-manager "$BIN/kube-controller-manager" \
    --kubeconfig "$KUBECONFIG_FILE" --authentication-kubeconfig "$KUBECONFIG_FILE" \
    --authorization-kubeconfig "$KUBECONFIG_FILE" --leader-elect=false \
    --bind-address 127.0.0.1 --secure-port "$KCM_PORT" \
    --root-ca-file "$PKI/ca.crt" --service-account-private-key-file "$PKI/sa.key" \
    --cluster-signing-cert-file "$PKI/ca.crt" --cluster-signing-key-file "$PKI/ca.key" \
    --controllers '*' --use-service-account-credentials=false \
    --kube-api-qps 500 --kube-api-burst 1000 --concurrent-job-syncs 20 \
    --node-monitor-grace-period 3m --node-startup-grace-period 3m
  wait_healthy kube-controller-manager "https://127.0.0.1:$KCM_PORT/healthz"
}

start_scheduler() {
  start kube-scheduler "$BIN/kube-scheduler" \
    --kubeconfig "$KUBECONFIG_FILE" --authentication-kubeconfig "$KUBECONFIG_FILE" \
    --authorization-kubeconfig "$KUBECONFIG_FILE" --leader-elect=false \
    --bind-address 127.0.0.1 --secure-port "$SCHEDULER_PORT" \
    --kube-api-qps 500 --kube-api-burst 1000
  wait_healthy kube-scheduler "https://127.0.0.1:$SCHEDULER_PORT/healthz"
}

start_kwok() {
  kwok_config >"$RUN/kwok.yaml"
  start kwok "$BIN/kwok" --kubeconfig "$KUBECONFIG_FILE" --config "$RUN/kwok.yaml" \
    --manage-all-nodes=false --manage-nodes-with-annotation-selector kwok.x-k8s.io/node=fake \
    --server-address "127.0.0.1:$KWOK_PORT" --cidr 10.244.0.1/16 --node-ip 127.0.0.1
  wait_healthy kwok "http://127.0.0.1:$KWOK_PORT/healthz"
}

cluster_is_up() {
  is_running kube-apiserver && [[ -f $KUBECONFIG_FILE ]] &&
    curl -fsS --max-time 2 --cacert "$PKI/ca.crt" --cert "$PKI/admin.crt" --key "$PKI/admin.key" \
      "$APISERVER/readyz" >/dev/null 2>&1
}

cmd_up() {
  local start=$SECONDS
  build_control_plane
  command -v openssl >/dev/null || die "openssl is required"
  command -v curl >/dev/null || die "curl is required"
  if cluster_is_up && is_running etcd && is_running kube-controller-manager && is_running kube-scheduler && is_running kwok; then
    log "cluster already up"
  else
    if ! is_running kube-apiserver; then
      # A control plane that is not running starts afresh, so objects left by an interrupted
      # run (webhook configurations of a stopped server, say) cannot get in the way. One that
      # runs but is slow to answer (a loaded machine, a component restarted by a chaos test)
      # keeps its state: the components that stopped start again and it is waited for.
      stop_all
      rm -rf "$RUN/etcd"
    fi
    mkdir -p "$RUN"
    make_pki
    write_kubeconfig
    start_etcd
    start_apiserver
    start_controller_manager
    start_scheduler
    start_kwok
    log "cluster up in $((SECONDS - start)) s"
  fi
  mkdir -p "$(dirname "$LOCAL_KUBECONFIG")"
  cp "$KUBECONFIG_FILE" "$LOCAL_KUBECONFIG"
  echo "export KUBECONFIG=$LOCAL_KUBECONFIG"
}

# Exited, or a zombie (whose ports are closed) not yet reaped by its parent.
gone() { ! kill -0 "$1" 2>/dev/null || [[ $(ps -o stat= -p "$1" 2>/dev/null) == Z* ]]; }

stop() {
  local pid
  pid=$(pid_of "$1") || return 0
  if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do gone "$pid" && break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    # A killed process holds its ports until it is gone: a successor started sooner cannot bind them.
    for _ in $(seq 100); do gone "$pid" && break; sleep 0.1; done
  fi
  rm -f "$PIDS/$1.pid"
}

stop_all() {
  local c
  node_down_quietly
  for c in spark-operator workflow-controller mpi-operator training-operator ray-operator kueue kwok kube-scheduler kube-controller-manager kube-apiserver etcd; do stop "$c"; done
}

cmd_down() {
  stop_all
  rm -rf "$RUN" "$LOCAL_KUBECONFIG"
  log "cluster down; state removed"
}

# A successor must find its ports free; whoever still listens on one after a minute is named.
wait_ports_free() {
  local port deadline=$((SECONDS + 60))
  for port in "$@"; do
    while [[ -n $(ss -Hltn "sport = :$port") ]]; do
      ((SECONDS < deadline)) || die "port $port is still in use a minute after its owner stopped: $(ss -Hltnp "sport = :$port")"
      sleep 0.2
    done
  done
}

# Restarts one control-plane component in place, its state kept: faults for the chaos tests.
cmd_restart() {
  cluster_is_up || is_running etcd || die "the cluster is not up; run: cluster.sh up"
  # Starting truncates the log: keep what the stopped one said.
  [[ -f $LOGS/${1:-}.log ]] && cp "$LOGS/$1.log" "$LOGS/$1.previous.log"
  case ${1:-} in
    etcd) stop etcd; wait_ports_free "$ETCD_PORT" "$ETCD_PEER_PORT" "$ETCD_METRICS_PORT"; start_etcd ;;
    kube-apiserver) stop kube-apiserver; wait_ports_free "$APISERVER_PORT"; start_apiserver ;;
    kube-scheduler) stop kube-scheduler; wait_ports_free "$SCHEDULER_PORT"; start_scheduler ;;
    kube-controller-manager) stop kube-controller-manager; wait_ports_free "$KCM_PORT"; start_controller_manager ;;
    *) die "$USAGE" ;;
  esac
  log "$1 restarted"
}

cmd_status() {
  local c state
  for c in etcd kube-apiserver kube-controller-manager kube-scheduler kwok kueue ray-operator training-operator mpi-operator workflow-controller spark-operator containerd kubelet; do
    if is_running "$c"; then state="running (pid $(pid_of "$c"), rss $(ps -o rss= -p "$(pid_of "$c")" | awk '{printf "%d MiB", $1/1024}'))"
    else state="stopped"; fi
    printf '%-24s %s\n' "$c" "$state"
  done
  if cluster_is_up; then echo "KUBECONFIG=$KUBECONFIG_FILE (logs in $LOGS)"; kubectl get nodes 2>/dev/null || true; fi
}

cmd_logs() {
  local name=${1:-}
  [[ -n $name && -f $LOGS/$name.log ]] || die "usage: cluster.sh logs <component>; logs are in $LOGS: $(ls "$LOGS" 2>/dev/null | tr '\n' ' ')"
  cat "$LOGS/$name.log"
}

source "$HERE/node.sh"
source "$HERE/images.sh"

# ---------------------------------------------------------------- nodes

cmd_nodes() {
  local count=1 cpu=32 memory=256Gi gpus=0 model="" prefix=kwok-node pods=110
  while (($#)); do
    case $1 in
      --count) count=$2 ;;
      --cpu) cpu=$2 ;;
      --memory) memory=$2 ;;
      --gpus) gpus=$2 ;;
      --gpu-model) model=$2 ;;
      --prefix) prefix=$2 ;;
      --pods) pods=$2 ;;
      *) die "unknown flag $1 (nodes takes --count --cpu --memory --gpus --gpu-model --prefix --pods)" ;;
    esac
    shift 2
  done
  cluster_is_up || die "the cluster is not up; run: cluster.sh up"
  local i gpu_labels="" gpu_capacity=""
  if ((gpus > 0)); then
    gpu_capacity="nvidia.com/gpu: \"$gpus\""
    gpu_labels="node.koordinator.sh/gpu-vendor: nvidia"
    [[ -n $model ]] && gpu_labels+=$'\n'"    node.koordinator.sh/gpu-model: $model"
  fi
  for ((i = 0; i < count; i++)); do
    cat <<EOF
---
apiVersion: v1
kind: Node
metadata:
  name: $prefix-$i
  annotations:
    kwok.x-k8s.io/node: fake
  labels:
    kubernetes.io/hostname: $prefix-$i
    kubernetes.io/os: linux
    kubernetes.io/arch: amd64
    type: kwok
    $gpu_labels
spec:
  taints: []
status:
  allocatable: {cpu: "$cpu", memory: "$memory", pods: "$pods"${gpu_capacity:+, $gpu_capacity}}
  capacity: {cpu: "$cpu", memory: "$memory", pods: "$pods"${gpu_capacity:+, $gpu_capacity}}
EOF
  # Forced: the node controller taints a node that is late to report Ready (a loaded machine), and
  # these nodes are ours to reset.
  done | kubectl apply --server-side --force-conflicts -f - >/dev/null
  kubectl wait --for=condition=Ready "node/$prefix-0" --timeout=60s >/dev/null
  log "$count KWOK node(s) $prefix-0..$((count - 1)) ready (cpu $cpu, memory $memory, gpus $gpus)"
}

# ---------------------------------------------------------------- kueue

kueue_config() {
  cat <<EOF
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
namespace: kueue-system
health:
  healthProbeBindAddress: 127.0.0.1:$KUEUE_HEALTH_PORT
metrics:
  bindAddress: 127.0.0.1:$KUEUE_METRICS_PORT
webhook:
  port: $KUEUE_WEBHOOK_PORT
  host: 127.0.0.1
  certDir: $RUN/kueue-certs
leaderElection:
  leaderElect: false
internalCertManagement:
  enable: false
# Client limits and concurrency as in Kueue's shipped manager configuration
# (config/components/manager/controller_manager_config.yaml), not the lower built-in defaults.
clientConnection:
  qps: 50
  burst: 100
controller:
  groupKindConcurrency:
    Job.batch: 5
    Workload.kueue.x-k8s.io: 5
    LocalQueue.kueue.x-k8s.io: 1
    Cohort.kueue.x-k8s.io: 1
    ClusterQueue.kueue.x-k8s.io: 1
    ResourceFlavor.kueue.x-k8s.io: 1
# The visibility API needs an aggregated API server with in-cluster certificates.
featureGates:
  VisibilityOnDemand: false
integrations:
  frameworks:
  - batch/job
EOF
}

# Kueue's webhook configurations, pointed at the local manager instead of an in-cluster service.
# Webhooks of integrations this cluster does not enable (pods, deployments, statefulsets) are left
# out so that they never stand in the way of other pods.
kueue_webhooks() {
  local dir=$1
  yq -y --arg base "https://127.0.0.1:$KUEUE_WEBHOOK_PORT" --arg ca "$(base64 -w0 <"$PKI/ca.crt")" '
    .metadata.name = "kueue-" + .metadata.name
    | .webhooks |= map(
        select(.clientConfig.service.path | test("-v1-pod$|-deployment$|-statefulset$") | not)
        | .clientConfig = {url: ($base + .clientConfig.service.path), caBundle: $ca})' \
    "$dir/config/components/webhook/manifests.yaml"
}

# Kueue's CRDs alone, e.g. for koord4j Queues that name AdmissionChecks while Kueue itself is off
kueue_crds() {
  kubectl apply --server-side --force-conflicts -f "$1/config/components/crd/bases" >/dev/null
  kubectl wait --for=condition=Established crd --all --timeout=60s >/dev/null
}

cmd_kueue() {
  case ${1:-} in
    crds)
      cluster_is_up || die "the cluster is not up; run: cluster.sh up"
      kueue_crds "$(module_dir "sigs.k8s.io/kueue@v$KUEUE_VERSION")"
      log "kueue $KUEUE_VERSION CRDs installed (Kueue itself not started)"
      ;;
    up)
      cluster_is_up || die "the cluster is not up; run: cluster.sh up"
      build_kueue
      local dir
      dir=$(module_dir "sigs.k8s.io/kueue@v$KUEUE_VERSION")
      kubectl create namespace kueue-system --dry-run=client -o yaml | kubectl apply -f - >/dev/null
      kueue_crds "$dir"
      mkdir -p "$RUN/kueue-certs"
      cp "$PKI/kueue-webhook.crt" "$RUN/kueue-certs/tls.crt"
      cp "$PKI/kueue-webhook.key" "$RUN/kueue-certs/tls.key"
      # With its own certificate management off, Kueue reads its metrics certificate from a fixed path.
      mkdir -p "$KUEUE_METRICS_CERTS" || die "cannot create $KUEUE_METRICS_CERTS (Kueue reads its metrics certificate there)"
      cp "$RUN/kueue-certs/tls.crt" "$RUN/kueue-certs/tls.key" "$KUEUE_METRICS_CERTS/"
      kueue_config >"$RUN/kueue-config.yaml"
      replace_unanswering kueue "http://127.0.0.1:$KUEUE_HEALTH_PORT/readyz"
      start kueue "$BIN/kueue" --config "$RUN/kueue-config.yaml" --kubeconfig "$KUBECONFIG_FILE"
      wait_healthy kueue "http://127.0.0.1:$KUEUE_HEALTH_PORT/readyz" 90
      kueue_webhooks "$dir" | kubectl apply --server-side --force-conflicts -f - >/dev/null
      log "kueue $KUEUE_VERSION up (webhooks at https://127.0.0.1:$KUEUE_WEBHOOK_PORT)"
      ;;
    down)
      if cluster_is_up; then
        kubectl delete mutatingwebhookconfiguration kueue-mutating-webhook-configuration --ignore-not-found >/dev/null
        kubectl delete validatingwebhookconfiguration kueue-validating-webhook-configuration --ignore-not-found >/dev/null
      fi
      stop kueue
      log "kueue down"
      ;;
    *) die "$USAGE" ;;
  esac
}

# ---------------------------------------------------------------- job kinds

# The upstream CRD files of every job kind koord4j queues, from each project's Go module.
# training-operator's own mpijobs CRD (kubeflow.org/v1) is left out: the MPI Operator's v2beta1
# CRD has the same name. Argo's "full" CRDs are not structural (the API server refuses them), so
# its "minimal" ones are installed, as Argo's own manifests do: all of them, since its workflow
# controller watches templates, task results and task sets too.
job_crds() {
  local training
  training=$(module_dir "github.com/kubeflow/training-operator@v$TRAINING_OPERATOR_VERSION")/manifests/base/crds
  echo "$training/kubeflow.org_tfjobs.yaml" "$training/kubeflow.org_pytorchjobs.yaml"
  echo "$(module_dir "github.com/kubeflow/mpi-operator@v$MPI_OPERATOR_VERSION")/manifests/base/kubeflow.org_mpijobs.yaml"
  # All of the Spark Operator's CRDs: its controller watches ScheduledSparkApplications and SparkConnects too.
  echo "$(module_dir "github.com/kubeflow/spark-operator/v2@v$SPARK_OPERATOR_VERSION")"/config/crd/bases/sparkoperator.k8s.io_*.yaml
  echo "$(module_dir "github.com/argoproj/argo-workflows/v3@v$ARGO_WORKFLOWS_VERSION")"/manifests/base/crds/minimal/argoproj.io_*.yaml
  local ray
  ray=$(module_dir "github.com/ray-project/kuberay/ray-operator@v$KUBERAY_VERSION")/config/crd/bases
  # RayServices are not queued, but KubeRay's operator stops when it cannot watch them.
  echo "$ray/ray.io_rayclusters.yaml" "$ray/ray.io_rayjobs.yaml" "$ray/ray.io_rayservices.yaml"
}

# Out of cluster, the training operator's certificate rotator still wants its Secret and webhook
# configuration: it fills the Secret, and injects its CA into the configuration, left without
# webhooks because the API server cannot reach the operator by its service name.
training_operator_webhook_objects() {
  cat <<EOF
apiVersion: v1
kind: Namespace
metadata: {name: kubeflow}
---
apiVersion: v1
kind: Secret
metadata: {name: training-operator-webhook-cert, namespace: kubeflow}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: validator.training-operator.kubeflow.org}
webhooks: []
EOF
}

training_operator_cert_issued() {
  [[ -n $(kubectl -n kubeflow get secret training-operator-webhook-cert -o 'jsonpath={.data.tls\.key}') ]]
}

# Copies the certificate the rotator wrote into its Secret to where the operator reads it, as a
# mounted Secret would be. A file is replaced only when it changed, and by a rename: the operator
# watches these files, and one it reads half written stops it.
copy_training_operator_certs() {
  local deadline=$((SECONDS + 60)) file
  until training_operator_cert_issued; do
    ((SECONDS < deadline)) || die "the training operator did not fill Secret kubeflow/training-operator-webhook-cert; see $LOGS/training-operator.log"
    sleep 0.5
  done
  mkdir -p "$TRAINING_OPERATOR_CERTS"
  for file in tls.crt tls.key; do
    (umask 077; kubectl -n kubeflow get secret training-operator-webhook-cert -o "jsonpath={.data.${file/./\\.}}" \
      | base64 -d >"$TRAINING_OPERATOR_CERTS/.$file.new")
    if cmp -s "$TRAINING_OPERATOR_CERTS/.$file.new" "$TRAINING_OPERATOR_CERTS/$file"; then
      rm "$TRAINING_OPERATOR_CERTS/.$file.new"
    else
      mv -f "$TRAINING_OPERATOR_CERTS/.$file.new" "$TRAINING_OPERATOR_CERTS/$file"
    fi
  done
}

# Only TFJob and PyTorchJob: its MPIJob controller is for kubeflow.org/v1, whereas the MPI
# Operator's v2beta1 CRD is installed; XGBoost, Paddle and JAX jobs are not queued.
start_training_operator() {
  training_operator_webhook_objects | kubectl apply -f - >/dev/null
  replace_unanswering training-operator "http://127.0.0.1:$TRAINING_OPERATOR_HEALTH_PORT/readyz"
  # A running operator whose Secret is empty outlived the control plane it was started against.
  if is_running training-operator && ! training_operator_cert_issued; then stop training-operator; fi
  # An issued certificate is in place before the operator starts; a new one is copied once issued.
  if ! is_running training-operator && training_operator_cert_issued; then copy_training_operator_certs; fi
  start training-operator env KUBECONFIG="$KUBECONFIG_FILE" "$BIN/training-operator.v1" \
    --metrics-bind-address "127.0.0.1:$TRAINING_OPERATOR_METRICS_PORT" \
    --health-probe-bind-address "127.0.0.1:$TRAINING_OPERATOR_HEALTH_PORT" \
    --webhook-server-port "$TRAINING_OPERATOR_WEBHOOK_PORT" \
    --enable-scheme tfjob --enable-scheme pytorchjob
  copy_training_operator_certs
  wait_healthy training-operator "http://127.0.0.1:$TRAINING_OPERATOR_HEALTH_PORT/readyz" 120
}

start_ray_operator() {
  replace_unanswering ray-operator "http://127.0.0.1:$RAY_OPERATOR_HEALTH_PORT/readyz"
  start ray-operator env KUBECONFIG="$KUBECONFIG_FILE" "$BIN/ray-operator" \
    --metrics-addr "127.0.0.1:$RAY_OPERATOR_METRICS_PORT" \
    --health-probe-bind-address "127.0.0.1:$RAY_OPERATOR_HEALTH_PORT" \
    --enable-leader-election=false --log-stdout-encoder console
  wait_healthy ray-operator "http://127.0.0.1:$RAY_OPERATOR_HEALTH_PORT/readyz" 90
}

# Without gang scheduling of its own (koord4j makes the gang) and without leader election's
# namespace of its install (its Lease goes to kube-system).
start_mpi_operator() {
  replace_unanswering mpi-operator "http://127.0.0.1:$MPI_OPERATOR_HEALTH_PORT/healthz"
  start mpi-operator env KUBECONFIG="$KUBECONFIG_FILE" "$BIN/mpi-operator" \
    --lock-namespace kube-system --kube-api-qps 50 --kube-api-burst 100
  wait_healthy mpi-operator "http://127.0.0.1:$MPI_OPERATOR_HEALTH_PORT/healthz" 90
}

# The workflow controller reads its configuration from this ConfigMap in its own namespace; its
# metrics go to a local port instead of 9090.
argo_controller_objects() {
  cat <<EOF
apiVersion: v1
kind: Namespace
metadata: {name: argo}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: workflow-controller-configmap, namespace: argo}
data:
  metricsConfig: |
    enabled: true
    port: $ARGO_CONTROLLER_METRICS_PORT
    secure: false
EOF
}

# One controller for workflows of every namespace, without leader election.
start_argo_controller() {
  argo_controller_objects | kubectl apply -f - >/dev/null
  replace_unanswering workflow-controller "http://127.0.0.1:$ARGO_CONTROLLER_HEALTH_PORT/healthz"
  start workflow-controller env LEADER_ELECTION_DISABLE=true "$BIN/workflow-controller" \
    --kubeconfig "$KUBECONFIG_FILE" --namespace argo \
    --executor-image "quay.io/argoproj/argoexec:v$ARGO_WORKFLOWS_VERSION" --qps 50 --burst 100
  wait_healthy workflow-controller "http://127.0.0.1:$ARGO_CONTROLLER_HEALTH_PORT/healthz" 90
}

# spark-submit and Spark's jars: the source archive of PyPI's pyspark holds a Spark distribution
# under deps/.
install_spark() {
  local home=$CACHE/spark-$SPARK_VERSION tmp
  [[ -x $home/bin/spark-submit ]] && return 0
  command -v pip >/dev/null || die "pip is required to fetch spark-submit (pyspark $SPARK_VERSION)"
  log "fetching spark-submit (pyspark $SPARK_VERSION, about 430 MB) ..."
  tmp=$(mktemp -d)
  pip download --quiet --no-deps -d "$tmp" "pyspark==$SPARK_VERSION"
  tar xzf "$tmp/pyspark-$SPARK_VERSION.tar.gz" -C "$tmp" "pyspark-$SPARK_VERSION/deps"
  mv "$tmp/pyspark-$SPARK_VERSION/deps" "$home"
  rm -rf "$tmp"
}

# The controller without its webhook: pod fields reach the pods through the SparkApplication's pod
# templates (spec.driver.template, spec.executor.template). It runs spark-submit, which creates the
# driver pod against the API server the service variables name; the driver creates the executors
# once it runs, which on a KWOK node it does not.
start_spark_operator() {
  install_spark
  replace_unanswering spark-operator "http://127.0.0.1:$SPARK_OPERATOR_HEALTH_PORT/readyz"
  start spark-operator env KUBECONFIG="$KUBECONFIG_FILE" SPARK_HOME="$CACHE/spark-$SPARK_VERSION" \
    KUBERNETES_SERVICE_HOST=127.0.0.1 KUBERNETES_SERVICE_PORT="$APISERVER_PORT" \
    "$BIN/spark-operator" controller start --controller-threads 4 --zap-encoder console \
    --health-probe-bind-address "127.0.0.1:$SPARK_OPERATOR_HEALTH_PORT"
  wait_healthy spark-operator "http://127.0.0.1:$SPARK_OPERATOR_HEALTH_PORT/readyz" 90
}

# Every job kind's operator, each built from its module (a wrapper module where the proxy does not
# list the operator's own).
build_operators() {
  build_one ray-operator "$KUBERAY_VERSION" "" ray-operator \
    go_install "github.com/ray-project/kuberay/ray-operator@v$KUBERAY_VERSION"
  build_one training-operator "$TRAINING_OPERATOR_VERSION" "" training-operator.v1 \
    go_install "github.com/kubeflow/training-operator/cmd/training-operator.v1@v$TRAINING_OPERATOR_VERSION"
  build_one mpi-operator "$MPI_OPERATOR_VERSION" mpi-operator mpi-operator \
    build_tool mpi-operator github.com/kubeflow/mpi-operator/cmd/mpi-operator mpi-operator
  build_one workflow-controller "$ARGO_WORKFLOWS_VERSION" argo-workflows workflow-controller \
    build_tool argo-workflows github.com/argoproj/argo-workflows/v3/cmd/workflow-controller workflow-controller
  build_one spark-operator "$SPARK_OPERATOR_VERSION" spark-operator spark-operator \
    build_tool spark-operator github.com/kubeflow/spark-operator/v2/cmd/operator spark-operator
}

# The job kinds' CRDs alone: what the manager and the webhook need to watch them.
install_job_crds() {
  local files file
  files=$(job_crds)
  for file in $files; do
    kubectl apply --server-side --force-conflicts -f "$file" >/dev/null
  done
  # Only these CRDs: another one may be in the middle of being created, without conditions yet.
  for file in $files; do
    kubectl wait --for=condition=Established -f "$file" --timeout=60s >/dev/null
  done
}

# KubeRay's operator, Kubeflow's training operator, the MPI Operator, Argo's workflow controller
# and the Spark Operator run out of cluster; the pods they create are placed by the scheduler their
# templates name (kube-scheduler by default) onto KWOK nodes, which run them.
cmd_jobs() {
  case ${1:-} in
    crds)
      cluster_is_up || die "the cluster is not up; run: cluster.sh up"
      install_job_crds
      log "job CRDs installed (their operators not started)"
      ;;
    up)
      cluster_is_up || die "the cluster is not up; run: cluster.sh up"
      build_operators
      install_job_crds
      start_ray_operator
      start_training_operator
      start_mpi_operator
      start_argo_controller
      start_spark_operator
      log "job CRDs installed; KubeRay operator $KUBERAY_VERSION, training operator $TRAINING_OPERATOR_VERSION, MPI Operator $MPI_OPERATOR_VERSION, Argo workflow controller $ARGO_WORKFLOWS_VERSION and Spark Operator $SPARK_OPERATOR_VERSION up"
      ;;
    down)
      stop spark-operator
      stop workflow-controller
      stop mpi-operator
      stop training-operator
      stop ray-operator
      log "job operators down (job CRDs stay)"
      ;;
    *) die "$USAGE" ;;
  esac
}

# ---------------------------------------------------------------- main

# Commands that start or stop processes run one at a time: two callers (tests of two modules, say)
# must not both find a component stopped and start it.
with_state_lock() {
  local lock
  mkdir -p "$CACHE"
  exec {lock}>"$CACHE/.state.lock"
  flock "$lock"
  "$@"
}

cmd_up_and_node() {
  cmd_up
  if [[ ${1:-} == --with-node || ${KOORD4J_REAL_NODE:-} == 1 ]]; then node_up; fi
}

case ${1:-} in
  build) shift; cmd_build "$@" ;;
  prebuild) cmd_prebuild ;;
  tool) shift; cmd_tool "$@" ;;
  up) shift; with_state_lock cmd_up_and_node "$@" ;;
  down) with_state_lock cmd_down ;;
  status) cmd_status ;;
  restart) shift; with_state_lock cmd_restart "$@" ;;
  logs) shift; cmd_logs "$@" ;;
  nodes) shift; cmd_nodes "$@" ;;
  kueue) shift; with_state_lock cmd_kueue "$@" ;;
  jobs) shift; with_state_lock cmd_jobs "$@" ;;
  node) shift; with_state_lock cmd_node "$@" ;;
  images) shift; with_state_lock cmd_images "$@" ;;
  kubeconfig) echo "$LOCAL_KUBECONFIG" ;;
  pid) is_running "${2:?pid of which process, e.g. kube-apiserver}" && pid_of "$2" ;;
  kubectl) shift; kubectl "$@" ;;
  *) die "$USAGE" ;;
esac
