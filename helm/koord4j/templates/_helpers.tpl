{{/* Base name of every object: the release name, with "koord4j" added unless it is in it. */}}
{{- define "koord4j.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* Labels of every object. */}}
{{- define "koord4j.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
app.kubernetes.io/part-of: koord4j
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end -}}

{{/* Labels that select one component's pods: include "koord4j.selector" (list . "manager") */}}
{{- define "koord4j.selector" -}}
{{- $root := index . 0 -}}
app.kubernetes.io/name: koord4j
app.kubernetes.io/instance: {{ $root.Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end -}}

{{/* Every label of one component's objects: include "koord4j.componentLabels" (list . "manager") */}}
{{- define "koord4j.componentLabels" -}}
{{ include "koord4j.labels" (index . 0) }}
{{ include "koord4j.selector" . }}
{{- end -}}

{{/* One component's image: include "koord4j.image" (list . "manager") */}}
{{- define "koord4j.image" -}}
{{- $root := index . 0 -}}
{{- printf "%s/%s:%s" $root.Values.image.repository (index . 1) (default $root.Chart.AppVersion $root.Values.image.tag) -}}
{{- end -}}

{{/* The ServiceAccount of one component: include "koord4j.serviceAccount" (list . "manager") */}}
{{- define "koord4j.serviceAccount" -}}
{{- printf "%s-%s" (include "koord4j.fullname" (index . 0)) (index . 1) -}}
{{- end -}}

{{/* Pod settings every component shares: network, pull secrets, security, placement.
     include "koord4j.podCommon" (list . .Values.manager) */}}
{{- define "koord4j.podCommon" -}}
{{- $root := index . 0 -}}
{{- $component := index . 1 -}}
{{- if $root.Values.networking.hostNetwork }}
hostNetwork: true
dnsPolicy: ClusterFirstWithHostNet
{{- end }}
{{- with $root.Values.image.pullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  runAsNonRoot: true
  runAsUser: {{ $root.Values.securityContext.runAsUser }}
  runAsGroup: {{ $root.Values.securityContext.runAsGroup }}
  seccompProfile:
    type: RuntimeDefault
{{- with $component.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $component.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* Container settings every component shares: security context and the scratch space Java needs
     on a read-only root filesystem. */}}
{{- define "koord4j.containerSecurity" -}}
securityContext:
  allowPrivilegeEscalation: false
  readOnlyRootFilesystem: true
  capabilities:
    drop: [ALL]
volumeMounts:
  - name: tmp
    mountPath: /tmp
{{- end -}}

{{/* Environment every component shares: JVM options (temporary files under /tmp, the only
     writable path), when set the API server's address, then javaEnv and its own extraEnv.
     include "koord4j.commonEnv" (list . .Values.manager) */}}
{{- define "koord4j.commonEnv" -}}
{{- $root := index . 0 -}}
{{- $component := index . 1 -}}
- name: JAVA_TOOL_OPTIONS
  value: {{ printf "%s -Djava.io.tmpdir=/tmp -Dvertx.cacheDirBase=/tmp/vertx-cache" $component.javaOptions | trim | quote }}
{{- with $root.Values.networking.apiServer.host }}
- name: KUBERNETES_SERVICE_HOST
  value: {{ . | quote }}
- name: KUBERNETES_SERVICE_PORT
  value: {{ $root.Values.networking.apiServer.port | quote }}
{{- end }}
{{- with $root.Values.javaEnv }}
{{ toYaml . }}
{{- end }}
{{- with $component.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* The variable naming the address a component listens on, from networking.listenAddress;
     nothing when that is empty (every address), hence the call with "with":
     {{- with include "koord4j.listenAddress" (list . "KOORD4J_HTTP_ADDRESS") }}{{ nindent 12 . }}{{ end }} */}}
{{- define "koord4j.listenAddress" -}}
{{- $variable := index . 1 -}}
{{- with (index . 0).Values.networking.listenAddress -}}
- name: {{ $variable }}
{{- if eq . "podIP" }}
  valueFrom:
    fieldRef: {fieldPath: status.podIP}
{{- else }}
  value: {{ . | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{/* Affinity of one component's pods: its own, or else a preference for one replica per node.
     include "koord4j.affinity" (list . .Values.manager "manager") */}}
{{- define "koord4j.affinity" -}}
{{- $component := index . 1 -}}
{{- if $component.affinity }}
{{- toYaml $component.affinity }}
{{- else }}
podAntiAffinity:
  preferredDuringSchedulingIgnoredDuringExecution:
    - weight: 100
      podAffinityTerm:
        topologyKey: kubernetes.io/hostname
        labelSelector:
          matchLabels:
            {{- include "koord4j.selector" (list (index . 0) (index . 2)) | nindent 12 }}
{{- end }}
{{- end -}}

{{/* How the scheduler's and yarn-copilot's Deployments roll: with hostNetwork a new pod cannot
     start next to the old one on its node (they would share ports), so an old pod goes first.
     The manager shares its ports instead (see its Deployment). */}}
{{- define "koord4j.strategy" -}}
{{- if .Values.networking.hostNetwork }}
type: RollingUpdate
rollingUpdate:
  maxSurge: 0
  maxUnavailable: 1
{{- else }}
type: RollingUpdate
rollingUpdate:
  maxSurge: 1
  maxUnavailable: 0
{{- end }}
{{- end -}}
