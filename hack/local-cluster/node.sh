# The real node: one kubelet with containerd and runc beside the KWOK nodes, so that pods really run
# (their processes, cgroups, logs and exec). Sourced by cluster.sh, whose helpers it uses.
#
# Network rule of this machine: nothing may send traffic to a pod IP or any private-range address.
# The node's InternalIP is therefore 127.0.0.1 (the API server reaches the kubelet there for logs,
# exec and port-forward), and components that serve traffic run with hostNetwork. The kubelet
# refuses a loopback --node-ip, so it runs with an external cloud provider and this script plays
# that provider's part: it sets the node's addresses and lifts the "uninitialized" taint.

NODE_NAME=real-node-0
NODE=$RUN/node
NODE_LABEL=koord4j.io/real-node
KUBELET_PORT=10250
KUBELET_HEALTHZ_PORT=10248
CONTAINERD_SOCKET=$NODE/containerd.sock
# The pods' bridge network. Pods get addresses here, but no test or tool sends them traffic.
CNI_BRIDGE=koord4j0
POD_SUBNET=10.88.0.0/24
IMAGES=$CACHE/images

ctr() { "$BIN/ctr" --address "$CONTAINERD_SOCKET" --namespace k8s.io "$@"; }

# Imports an image archive, unpacked for the snapshotter the CRI uses.
import_image() { ctr images import --snapshotter "$(<"$NODE/snapshotter")" "$1" >/dev/null; }

build_kubelet() { (cd "$HERE/kubernetes" && go build -ldflags "$(version_ldflags)" -o "$BIN/" k8s.io/kubernetes/cmd/kubelet); }

build_containerd() {
  local cmd=github.com/containerd/containerd/v2/cmd
  (cd "$HERE/containerd" && go build -ldflags "-s -w" -o "$BIN/" "$cmd/containerd" "$cmd/containerd-shim-runc-v2" "$cmd/ctr")
}

# The pod network's plugins: Debian's (package containernetworking-plugins) where installed, else
# built from their module.
CNI_PLUGINS=(bridge loopback host-local portmap)
DEBIAN_CNI=/usr/lib/cni

cni_bin_dir() {
  local plugin
  for plugin in "${CNI_PLUGINS[@]}"; do [[ -x $DEBIAN_CNI/$plugin ]] || { echo "$BIN/cni"; return; }; done
  echo "$DEBIAN_CNI"
}

build_cni_plugins() {
  local module=github.com/containernetworking/plugins/plugins
  GOBIN=$BIN/cni go install -ldflags "-s -w" "$module/main/bridge@v$CNI_PLUGINS_VERSION" \
    "$module/main/loopback@v$CNI_PLUGINS_VERSION" "$module/ipam/host-local@v$CNI_PLUGINS_VERSION" \
    "$module/meta/portmap@v$CNI_PLUGINS_VERSION"
}

node_build() {
  command -v runc >/dev/null || die "runc is required for the real node (Debian package runc)"
  mkdir -p "$BIN"
  build_one kubelet "$K8S_VERSION" kubernetes kubelet build_kubelet
  build_one containerd "$CONTAINERD_VERSION" containerd "containerd containerd-shim-runc-v2 ctr" build_containerd
  if [[ $(cni_bin_dir) != "$DEBIAN_CNI" ]]; then
    build_one cni "$CNI_PLUGINS_VERSION" "" "${CNI_PLUGINS[*]/#/cni/}" build_cni_plugins
  fi
}

node_pki() {
  issue_cert kubelet-client "/O=system:nodes/CN=system:node:$NODE_NAME" "" clientAuth
  issue_cert kubelet-serving "/CN=$NODE_NAME" "IP:127.0.0.1,DNS:$NODE_NAME,DNS:localhost" serverAuth
  kubeconfig_for kubelet-client >"$NODE/kubelet.kubeconfig"
}

# overlayfs where this kernel and file system mount it, the plain copying snapshotter otherwise.
node_snapshotter() {
  local probe=$NODE/overlay-probe
  mkdir -p "$probe"/{lower,upper,work,merged}
  if mount -t overlay overlay -o "lowerdir=$probe/lower,upperdir=$probe/upper,workdir=$probe/work" \
    "$probe/merged" 2>/dev/null; then
    umount "$probe/merged"
    echo overlayfs
  else
    echo native
  fi
  rm -rf "$probe"
}

containerd_config() {
  cat <<EOF
version = 3
root = '$NODE/containerd/root'
state = '$NODE/containerd/state'
[grpc]
  address = '$CONTAINERD_SOCKET'
[plugins.'io.containerd.internal.v1.opt']
  path = '$NODE/containerd/opt'
[plugins.'io.containerd.nri.v1.nri']
  disable = true
[plugins.'io.containerd.cri.v1.images']
  snapshotter = '$(<"$NODE/snapshotter")'
  [plugins.'io.containerd.cri.v1.images'.pinned_images]
    sandbox = '$(pause_image)'
[plugins.'io.containerd.cri.v1.runtime']
  # This machine refuses to lower a process's oom_score_adj.
  restrict_oom_score_adj = true
  netns_mounts_under_state_dir = true
  [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc.options]
    BinaryName = '$(command -v runc)'
    Root = '$NODE/runc'
  [plugins.'io.containerd.cri.v1.runtime'.cni]
    bin_dirs = ['$(cni_bin_dir)']
    conf_dir = '$NODE/cni'
[plugins.'io.containerd.grpc.v1.cri']
  stream_server_address = '127.0.0.1'
EOF
}

cni_config() {
  cat <<EOF
{
  "cniVersion": "1.0.0",
  "name": "koord4j",
  "plugins": [
    {"type": "bridge", "bridge": "$CNI_BRIDGE", "isGateway": true, "ipMasq": false, "hairpinMode": true,
     "ipam": {"type": "host-local", "ranges": [[{"subnet": "$POD_SUBNET"}]], "dataDir": "$NODE/cni-ipam"}},
    {"type": "portmap", "capabilities": {"portMappings": true}}
  ]
}
EOF
}

kubelet_config() {
  cat <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: 127.0.0.1
port: $KUBELET_PORT
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: $KUBELET_HEALTHZ_PORT
tlsCertFile: $PKI/kubelet-serving.crt
tlsPrivateKeyFile: $PKI/kubelet-serving.key
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: $PKI/ca.crt}
authorization: {mode: Webhook}
containerRuntimeEndpoint: unix://$CONTAINERD_SOCKET
staticPodPath: $NODE/manifests
cgroupDriver: cgroupfs
# The kubelet refuses cgroup v1 hosts unless told otherwise; on a cgroup v2 host this is ignored.
failCgroupV1: false
failSwapOn: false
registerWithTaints:
- {key: $NODE_LABEL, value: "true", effect: NoSchedule}
maxPods: 30
serializeImagePulls: false
# Images are imported, never pulled: the kubelet must not collect them.
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard: {memory.available: 100Mi}
clusterDomain: cluster.local
EOF
}

node_is_ready() {
  [[ $(kubectl get node "$NODE_NAME" -o 'jsonpath={.status.conditions[?(@.type=="Ready")].status}' 2>/dev/null) == True ]]
}

# The cloud provider's part: loopback address and no "uninitialized" taint, once the kubelet registered.
initialize_node() {
  local deadline=$((SECONDS + 120))
  until kubectl get node "$NODE_NAME" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || { tail -n 30 "$LOGS/kubelet.log" >&2; die "the kubelet did not register node $NODE_NAME"; }
    is_running kubelet || { tail -n 30 "$LOGS/kubelet.log" >&2; die "the kubelet stopped; see $LOGS/kubelet.log"; }
    sleep 0.5
  done
  kubectl patch node "$NODE_NAME" --subresource=status --type=merge \
    -p "{\"status\":{\"addresses\":[{\"type\":\"InternalIP\",\"address\":\"127.0.0.1\"},{\"type\":\"Hostname\",\"address\":\"$NODE_NAME\"}]}}" >/dev/null
  kubectl taint node "$NODE_NAME" node.cloudprovider.kubernetes.io/uninitialized- >/dev/null 2>&1 || true
  until node_is_ready; do
    ((SECONDS < deadline)) || { tail -n 30 "$LOGS/kubelet.log" >&2; die "node $NODE_NAME did not become Ready"; }
    sleep 0.5
  done
}

start_containerd() {
  mkdir -p "$NODE/containerd" "$NODE/cni" "$NODE/manifests" "$NODE/runc"
  node_snapshotter >"$NODE/snapshotter"
  containerd_config >"$NODE/containerd.toml"
  cni_config >"$NODE/cni/10-koord4j.conflist"
  start containerd env PATH="$BIN:$PATH" "$BIN/containerd" --config "$NODE/containerd.toml"
  local deadline=$((SECONDS + 30))
  until ctr version >/dev/null 2>&1; do
    ((SECONDS < deadline)) && is_running containerd || { tail -n 30 "$LOGS/containerd.log" >&2; die "containerd did not start"; }
    sleep 0.3
  done
}

start_kubelet() {
  kubelet_config >"$NODE/kubelet.yaml"
  start kubelet "$BIN/kubelet" --config "$NODE/kubelet.yaml" --kubeconfig "$NODE/kubelet.kubeconfig" \
    --root-dir "$NODE/kubelet" --hostname-override "$NODE_NAME" --cloud-provider external \
    --node-labels "$NODE_LABEL=true,kubernetes.io/os=linux"
}

# Pods in the node's network hand a shared port (SO_REUSEPORT) to their successor: connections
# still queued in a listener that closes move to another listener of the port instead of being
# reset (Linux 5.14+).
migrate_shared_port_connections() {
  local knob=/proc/sys/net/ipv4/tcp_migrate_req
  if [[ -w $knob ]]; then echo 1 >"$knob"; else log "$knob is not available: a closing listener resets its queued connections"; fi
}

node_up() {
  cluster_is_up || die "the cluster is not up; run: cluster.sh up"
  local start=$SECONDS
  node_build
  migrate_shared_port_connections
  if is_running kubelet && is_running containerd && node_is_ready; then
    log "real node $NODE_NAME already up"
    return 0
  fi
  node_down_quietly
  mkdir -p "$NODE"
  node_pki
  build_pause_image
  start_containerd
  import_image "$(pause_archive)"
  start_kubelet
  initialize_node
  log "real node $NODE_NAME Ready in $((SECONDS - start)) s (containerd $CONTAINERD_VERSION, $(runc --version | head -1))"
}

# Kills every process in the kubelet's pod cgroups, so that no container outlives the node.
kill_pod_processes() {
  local procs
  # Cgroups vanish while their last tasks die: a file gone under find is no failure.
  procs=$(find /sys/fs/cgroup -path '*/kubepods*' -name cgroup.procs -exec cat {} + 2>/dev/null | sort -u || true)
  [[ -n $procs ]] && kill -9 $procs 2>/dev/null || true
}

# Removes the kubelet's pod cgroups, deepest first.
remove_pod_cgroups() {
  find /sys/fs/cgroup -depth -type d -path '*/kubepods*' -exec rmdir {} + 2>/dev/null || true
}

unmount_node_state() {
  local mnt
  awk -v dir="$NODE" 'index($2, dir) == 1 { print $2 }' /proc/mounts | sort -r | while read -r mnt; do
    umount "$mnt" 2>/dev/null || umount -l "$mnt" 2>/dev/null || true
  done
}

node_down_quietly() {
  stop kubelet
  if is_running containerd; then
    local task
    for task in $(ctr tasks ls -q 2>/dev/null); do ctr tasks kill -s SIGKILL "$task" >/dev/null 2>&1 || true; done
  fi
  kill_pod_processes
  stop containerd
  pkill -9 -f "containerd-shim-runc-v2 .*-address $CONTAINERD_SOCKET" 2>/dev/null || true
  kill_pod_processes
  unmount_node_state
  remove_pod_cgroups
  ip link del "$CNI_BRIDGE" 2>/dev/null || true
  rm -rf "$NODE"
}

node_down() {
  node_down_quietly
  if cluster_is_up; then kubectl delete node "$NODE_NAME" --ignore-not-found >/dev/null; fi
  log "real node $NODE_NAME down"
}

node_status() {
  local c
  echo "state directory: $NODE"
  for c in containerd kubelet; do
    if is_running "$c"; then printf '%-24s running (pid %s)\n' "$c" "$(pid_of "$c")"; else printf '%-24s stopped\n' "$c"; fi
  done
  if cluster_is_up; then kubectl get node "$NODE_NAME" -o wide 2>/dev/null || echo "node $NODE_NAME not registered"; fi
}

cmd_node() {
  case ${1:-} in
    build) node_build; build_pause_image ;;
    up) node_up ;;
    down) node_down ;;
    status) node_status ;;
    *) die "$USAGE" ;;
  esac
}
