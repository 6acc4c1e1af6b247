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

{{/*
The tag that runs: image.tag, else the chart's appVersion. It is the build id, so it is
also the app.kubernetes.io/version label.
*/}}
{{- define "meridian.imageTag" -}}
{{- .Values.image.tag | default .Chart.AppVersion }}
{{- end }}

{{/* Full image reference, with the digest when one is pinned. */}}
{{- define "meridian.image" -}}
{{- $reference := printf "%s:%s" .Values.image.repository (include "meridian.imageTag" .) }}
{{- if .Values.image.digest }}
{{- $reference = printf "%s@%s" $reference .Values.image.digest }}
{{- end }}
{{- $reference }}
{{- end }}

{{/*
Labels that never change for the release's pods. Selectors are immutable, so the
version must never be among them.
*/}}
{{- define "meridian.selectorLabels" -}}
app.kubernetes.io/name: {{ include "meridian.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* Selector of the web server's pods (not the helm test pod). */}}
{{- define "meridian.webSelectorLabels" -}}
{{ include "meridian.selectorLabels" . }}
app.kubernetes.io/component: web
{{- end }}

{{/* Labels of every resource; the component is added by each template. */}}
{{- define "meridian.labels" -}}
helm.sh/chart: {{ include "meridian.chart" . }}
{{ include "meridian.selectorLabels" . }}
app.kubernetes.io/version: {{ include "meridian.imageTag" . | quote }}
app.kubernetes.io/part-of: meridian
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* Name of the ServiceAccount the pods run as. */}}
{{- define "meridian.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "meridian.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
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
