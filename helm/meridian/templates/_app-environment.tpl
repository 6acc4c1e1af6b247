{{/*
The server's settings as environment variables (the data of the release's ConfigMap), as YAML.
*/}}
{{- define "meridian.appEnvironment" -}}
{{- if eq (int .Values.containerPorts.http) (int .Values.containerPorts.metrics) }}
{{- fail (printf "containerPorts.metrics=%d must differ from containerPorts.http: /metrics stays off the public port" (int .Values.containerPorts.metrics)) }}
{{- end }}
{{- if and .Values.app.telemetryTokenTtlMs (lt (int .Values.app.telemetryTokenTtlMs) (mul 2 (int .Values.app.buildPollIntervalMs))) }}
{{- fail (printf "app.telemetryTokenTtlMs=%d must be at least twice app.buildPollIntervalMs=%d: open tabs renew their page-view tokens at each poll" (int .Values.app.telemetryTokenTtlMs) (int .Values.app.buildPollIntervalMs)) }}
{{- end }}
PORT: {{ .Values.containerPorts.http | int | quote }}
METRICS_PORT: {{ .Values.containerPorts.metrics | int | quote }}
HOSTNAME: {{ .Values.app.bindAddress | quote }}
LOG_LEVEL: {{ .Values.app.logLevel | quote }}
BUILD_POLL_INTERVAL_MS: {{ .Values.app.buildPollIntervalMs | int | quote }}
SHUTDOWN_DELAY_MS: {{ .Values.app.shutdownDelayMs | int | quote }}
SHUTDOWN_TIMEOUT_MS: {{ .Values.app.shutdownTimeoutMs | int | quote }}
KEEP_ALIVE_TIMEOUT_MS: {{ .Values.app.keepAliveTimeoutMs | int | quote }}
HEADERS_TIMEOUT_MS: {{ .Values.app.headersTimeoutMs | int | quote }}
MAX_CONNECTIONS: {{ .Values.app.maxConnections | int | quote }}
TRUST_PROXY: {{ include "meridian.trustProxy" . | quote }}
HSTS: {{ .Values.app.hsts | quote }}
TELEMETRY_RATE_LIMIT_PER_MINUTE: {{ .Values.app.telemetryRateLimitPerMinute | int | quote }}
{{- with .Values.app.telemetryTokenTtlMs }}
TELEMETRY_TOKEN_TTL_MS: {{ . | int | quote }}
{{- end }}
RENDER_CONCURRENCY: {{ .Values.app.renderConcurrency | int | quote }}
RENDER_QUEUE: {{ .Values.app.renderQueue | int | quote }}
NEXT_ANSWERS_ALL: {{ .Values.app.nextAnswersAll | quote }}
{{- with .Values.app.siteUrl }}
SITE_URL: {{ . | quote }}
{{- end }}
{{- if eq .Values.rollout.strategy "canary" }}
{{- /* The Services Argo Rollouts points at each build's pods (rollout-services.yaml). */}}
STABLE_SERVICE_URL: {{ printf "http://%s-stable:%d" (include "meridian.fullname" .) (int .Values.service.port) | quote }}
CANARY_SERVICE_URL: {{ printf "http://%s-canary:%d" (include "meridian.fullname" .) (int .Values.service.port) | quote }}
{{- end }}
OTEL_SERVICE_NAME: {{ .Values.app.otel.serviceName | quote }}
{{- with .Values.app.otel.exporterOtlpEndpoint }}
OTEL_EXPORTER_OTLP_ENDPOINT: {{ . | quote }}
{{- end }}
{{- with .Values.app.otel.exporterOtlpTracesEndpoint }}
OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: {{ . | quote }}
{{- end }}
OTEL_SDK_DISABLED: {{ .Values.app.otel.sdkDisabled | quote }}
{{- range $name, $value := .Values.app.otel.env }}
{{ $name }}: {{ include "meridian.envValue" $value | quote }}
{{- end }}
{{- end }}

{{/*
Name of the ConfigMap holding meridian.appEnvironment: the release's name and a hash of the
settings, so that each set of settings has its own ConfigMap and a pod template names the one
its pods were made with (configmap.yaml keeps those of the pods still running).
*/}}
{{- define "meridian.appEnvironmentName" -}}
{{- printf "%s-env-%s" (include "meridian.fullname" .) (include "meridian.appEnvironment" . | fromYaml | toJson | sha256sum | trunc 10) }}
{{- end }}
