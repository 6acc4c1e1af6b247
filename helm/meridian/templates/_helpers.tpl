{{/* Chart name, or nameOverride. */}}
{{- define "meridian.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Full name of the release's resources: fullnameOverride, else <release>-<chart>, else the
release name alone when it already contains the chart name. 55 characters at most, so that
"<fullname>-metrics" is still a valid Service name (a DNS label of 63).
*/}}
{{- define "meridian.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 55 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 55 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 55 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* Value of the helm.sh/chart label. */}}
{{- define "meridian.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Namespace of every namespaced object: namespaceOverride, else the release's. */}}
{{- define "meridian.namespace" -}}
{{- default .Release.Namespace .Values.namespaceOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The build that runs, which is also the app.kubernetes.io/version label and the build id
the helm test expects. Without a digest it is the tag (image.tag, else appVersion). A
digest replaces the tag in the image reference, so with one the build is named by
image.buildId, and image.tag must stay empty: `--set-string image.tag=<new>` on top of a
kept digest would otherwise relabel the old image as the new build.
*/}}
{{- define "meridian.imageTag" -}}
{{- if .Values.image.digest }}
{{- if .Values.image.tag }}
{{- fail (printf "image.tag=%s and image.digest are both set: the digest replaces the tag, so the tag would name a build that is not running. Set the new digest with image.buildId and image.tag empty (--set image.tag=), or clear image.digest (--set image.digest=) to run the tag." .Values.image.tag) }}
{{- end }}
{{- required "image.digest needs image.buildId: the build id the digest was built as, for the version label and the helm test" .Values.image.buildId }}
{{- else }}
{{- .Values.image.tag | default .Chart.AppVersion }}
{{- end }}
{{- end }}

{{/* Full image reference: [global.imageRegistry/]repository, then @digest or :tag. */}}
{{- define "meridian.image" -}}
{{- $repository := .Values.image.repository }}
{{- with (.Values.global).imageRegistry }}
{{- $repository = printf "%s/%s" (trimSuffix "/" .) $repository }}
{{- end }}
{{- if .Values.image.digest }}
{{- printf "%s@%s" $repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" $repository (include "meridian.imageTag" .) }}
{{- end }}
{{- end }}

{{/*
imagePullSecrets of the pods: global.imagePullSecrets, then imagePullSecrets, each entry a
name or a {name: …} reference (both forms Bitnami charts take), without repeats.
*/}}
{{- define "meridian.imagePullSecrets" -}}
{{- $names := list }}
{{- range concat ((.Values.global).imagePullSecrets | default list) .Values.imagePullSecrets }}
{{- if kindIs "string" . }}
{{- $names = append $names . }}
{{- else }}
{{- $names = append $names .name }}
{{- end }}
{{- end }}
{{- with uniq $names }}
{{- print "imagePullSecrets:" }}
{{- range . }}
  - name: {{ . | quote }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Labels that never change for the release's pods. Selectors are immutable, so the
version must never be among them.
*/}}
{{- define "meridian.selectorLabels" -}}
app.kubernetes.io/name: {{ include "meridian.name" . | quote }}
app.kubernetes.io/instance: {{ .Release.Name | quote }}
{{- end }}

{{/* Selector of the web server's pods (not the helm test pod). */}}
{{- define "meridian.webSelectorLabels" -}}
{{ include "meridian.selectorLabels" . }}
app.kubernetes.io/component: web
{{- end }}

{{/*
Labels of the web pods' template: no helm.sh/chart, so a chart release that changes no pod
field rolls no pod. The version label follows the build, which rolls the pods anyway.
*/}}
{{- define "meridian.podLabels" -}}
{{ include "meridian.selectorLabels" . }}
app.kubernetes.io/version: {{ include "meridian.imageTag" . | quote }}
app.kubernetes.io/part-of: meridian
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/*
Labels of the web pods, each key once: the selector's labels over podLabels, podLabels over
commonLabels and the chart's others (a key in both would be written twice, a map YAML
refuses). The selector's win so that no value can take the pods out of their Service.
*/}}
{{- define "meridian.webPodTemplateLabels" -}}
{{- $labels := merge (include "meridian.webSelectorLabels" . | fromYaml) (deepCopy (.Values.podLabels | default dict)) (include "meridian.podLabels" . | fromYaml) }}
{{- toYaml $labels }}
{{- end }}

{{/* Labels of every resource; the component is added by each template. */}}
{{- define "meridian.labels" -}}
helm.sh/chart: {{ include "meridian.chart" . }}
{{ include "meridian.podLabels" . }}
{{- end }}

{{/*
metadata.annotations of a resource: its own (the dict's "own"), over commonAnnotations.
Prints nothing when there are none. Use: include "meridian.annotations" (dict "context" $ "own" .Values.x.annotations)
*/}}
{{- define "meridian.annotations" -}}
{{- $annotations := merge (dict) (.own | default dict) (.context.Values.commonAnnotations | default dict) }}
{{- with $annotations }}
{{- print "annotations:" }}
{{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/*
A value as an environment variable's text. Numbers from a values file are float64, which
Go prints as 1e+07: whole numbers are printed as integers.
*/}}
{{- define "meridian.envValue" -}}
{{- if and (kindIs "float64" .) (eq . (float64 (int64 .))) }}
{{- int64 . | toString }}
{{- else }}
{{- toString . }}
{{- end }}
{{- end }}

{{/*
TRUST_PROXY: app.trustProxy when set (false, a hop count, or addresses/CIDRs); else 1 hop
(the ingress controller or gateway proxy in front of the pods) when an Ingress or
HTTPRoute is rendered, and false without one. Never "true", which the server refuses.
*/}}
{{- define "meridian.trustProxy" -}}
{{- $set := .Values.app.trustProxy }}
{{- if kindIs "invalid" $set }}
{{- ternary "1" "false" (or .Values.ingress.enabled .Values.httpRoute.enabled) }}
{{- else }}
{{- include "meridian.envValue" $set }}
{{- end }}
{{- end }}

{{/* Name of the ServiceAccount the pods run as. */}}
{{- define "meridian.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "meridian.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/*
The app container's resources. Unless resources names ephemeral-storage (a request, or a limit,
which Kubernetes then also takes as the request), it requests the room its two emptyDirs (/tmp
and Next's cache) may fill, 2 × emptyDirSizeLimit, so the scheduler places the pod on a node
with that much local storage free.
*/}}
{{- define "meridian.resources" -}}
{{- $resources := deepCopy .Values.resources }}
{{- $requests := $resources.requests | default dict }}
{{- range $name, $limit := $resources.limits | default dict }}
{{- if and (hasKey $requests $name) (gt (include "meridian.quantity" (get $requests $name) | float64) (include "meridian.quantity" $limit | float64)) }}
{{- fail (printf "resources.requests.%s=%v is above resources.limits.%s=%v: the API server refuses such a pod. Lower the request or raise the limit (the chart's default requests stay unless you set them)." $name (get $requests $name) $name $limit) }}
{{- end }}
{{- end }}
{{- if not (or (hasKey $requests "ephemeral-storage") (hasKey ($resources.limits | default dict) "ephemeral-storage")) }}
{{- $limit := .Values.emptyDirSizeLimit }}
{{- $_ := set $requests "ephemeral-storage" (printf "%d%s" (mul 2 (regexFind "^[0-9]+" $limit | int64)) (regexReplaceAll "^[0-9]+" $limit "")) }}
{{- end }}
{{- $_ := set $resources "requests" $requests }}
{{- toYaml $resources }}
{{- end }}

{{/*
A resource quantity in thousandths of its unit (millicores, millibytes), rounded to a whole
number so that 300m and 0.3 compare equal: the forms values.schema.json accepts, a number or
digits with one of the suffixes m, k, M, G, T, Ki, Mi, Gi, Ti.
*/}}
{{- define "meridian.quantity" -}}
{{- $text := toString . }}
{{- $digits := regexFind "^[0-9]+(\\.[0-9]+)?" $text }}
{{- $thousandths := dict "" 1e3 "m" 1.0 "k" 1e6 "M" 1e9 "G" 1e12 "T" 1e15 "Ki" 1024e3 "Mi" 1048576e3 "Gi" 1073741824e3 "Ti" 1099511627776e3 }}
{{- round (mulf ($digits | float64) (get $thousandths (trimPrefix $digits $text))) 0 }}
{{- end }}

{{/* Shutdown budget of the server in milliseconds: SHUTDOWN_DELAY_MS + SHUTDOWN_TIMEOUT_MS. */}}
{{- define "meridian.shutdownBudgetMs" -}}
{{- add (int .Values.app.shutdownDelayMs) (int .Values.app.shutdownTimeoutMs) }}
{{- end }}

{{/*
terminationGracePeriodSeconds: the kubelet sends SIGKILL when it runs out, so it must outlast
the server's own shutdown (serve for the delay, then drain for the timeout). Computed as the
budget rounded up plus 5 s for flushing logs and traces; a value set by hand must exceed it.
*/}}
{{- define "meridian.terminationGracePeriodSeconds" -}}
{{- $budgetMs := int (include "meridian.shutdownBudgetMs" .) }}
{{- $set := .Values.terminationGracePeriodSeconds }}
{{- if kindIs "invalid" $set }}
{{- add (div (add $budgetMs 999) 1000) 5 }}
{{- else if le (mul (int $set) 1000) $budgetMs }}
{{- fail (printf "terminationGracePeriodSeconds=%d must exceed (app.shutdownDelayMs + app.shutdownTimeoutMs) / 1000 = %d ms / 1000: the kubelet would kill the pod while it still drains requests. Raise it, lower the shutdown settings, or leave it empty to have it computed." (int $set) $budgetMs) }}
{{- else }}
{{- int $set }}
{{- end }}
{{- end }}

{{/*
The job label Prometheus gives the release's metrics targets: the metrics Service's name,
which is what the Prometheus Operator uses for a ServiceMonitor without jobLabel.
*/}}
{{- define "meridian.metricsJob" -}}
{{- printf "%s-metrics" (include "meridian.fullname" .) }}
{{- end }}

{{/*
The matchers that scope a PromQL selector to this release: its job and namespace. The
rules file and the dashboard are written for the compose stack's job="meridian"; the chart
puts these in place of that matcher, so two releases never read each other's series.
*/}}
{{- define "meridian.seriesScope" -}}
{{- printf "job=%q, namespace=%q" (include "meridian.metricsJob" .) (include "meridian.namespace" .) }}
{{- end }}

{{/*
Grafana uid of the release's dashboard (at most 40 characters): readable when namespace and
name fit, else shortened with a hash of both so that it stays unique.
*/}}
{{- define "meridian.dashboardUid" -}}
{{- $name := printf "%s-%s" (include "meridian.namespace" .) (include "meridian.fullname" .) }}
{{- if le (len $name) 40 }}
{{- $name }}
{{- else }}
{{- printf "%s-%s" ($name | trunc 27 | trimSuffix "-") (sha256sum $name | trunc 12) }}
{{- end }}
{{- end }}

{{/*
The Secret holding the page-view token keys: the user's, or the one the chart creates.
*/}}
{{- define "meridian.telemetryTokenSecret" -}}
{{- .Values.app.telemetryTokenKeys.existingSecret | default (printf "%s-telemetry" (include "meridian.fullname" .)) }}
{{- end }}

{{/*
The pods' tolerations: `tolerations`, and for a node that stops answering (unreachable) or
reports itself not ready, a NoExecute toleration of nodeLossTolerationSeconds, so the pods
of a lost node are replaced that long after Kubernetes marks it, instead of the 300 s
Kubernetes gives pods that say nothing. A toleration of `tolerations` for either key (or
for every key) wins; null leaves both to Kubernetes.
*/}}
{{- define "meridian.tolerations" -}}
{{- $tolerations := .Values.tolerations | default list }}
{{- if not (kindIs "invalid" .Values.nodeLossTolerationSeconds) }}
{{- range $key := list "node.kubernetes.io/unreachable" "node.kubernetes.io/not-ready" }}
{{- $covered := false }}
{{- range $tolerations }}
{{- if or (eq (.key | default "") $key) (and (not .key) (eq (.operator | default "") "Exists")) }}
{{- $covered = true }}
{{- end }}
{{- end }}
{{- if not $covered }}
{{- $tolerations = append $tolerations (dict "key" $key "operator" "Exists" "effect" "NoExecute" "tolerationSeconds" (int $.Values.nodeLossTolerationSeconds)) }}
{{- end }}
{{- end }}
{{- end }}
{{- toYaml $tolerations }}
{{- end }}
