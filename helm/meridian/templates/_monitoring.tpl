{{/*
A Prometheus duration (1m30s, 2h, 500ms, 0) in milliseconds. The schema has already refused
anything Prometheus would not parse, so every part is a number and a unit.
*/}}
{{- define "meridian.durationMs" -}}
{{- $unitMs := dict "y" 31536000000 "w" 604800000 "d" 86400000 "h" 3600000 "m" 60000 "s" 1000 "ms" 1 }}
{{- $total := 0 }}
{{- range regexFindAll "[0-9]+(ms|y|w|d|h|m|s)" . -1 }}
{{- $total = add $total (mul (regexReplaceAll "[a-z]+$" . "" | int64) (get $unitMs (regexReplaceAll "^[0-9]+" . ""))) }}
{{- end }}
{{- $total }}
{{- end }}

{{/*
Whether a ServiceMonitor relabeling (relabelings or metricRelabelings entry) writes or removes
the label `label`, as Prometheus applies its action (replace by default). labelmap is caught
only when its replacement names the label outright: what it maps depends on the target's labels.
*/}}
{{- define "meridian.relabelingChanges" -}}
{{- $relabeling := .relabeling }}
{{- $action := lower ($relabeling.action | default "replace") }}
{{- $nameMatches := regexMatch (printf "^(?:%s)$" ($relabeling.regex | default "(.*)")) .label }}
{{- if and (has $action (list "replace" "hashmod" "lowercase" "uppercase")) (eq ($relabeling.targetLabel | default "") .label) }}
{{- printf "sets it (action %s, targetLabel %s)" $action .label }}
{{- else if and (eq $action "labeldrop") $nameMatches }}
{{- printf "drops it (action labeldrop, regex %s)" $relabeling.regex }}
{{- else if and (eq $action "labelkeep") (not $nameMatches) }}
{{- printf "drops it (action labelkeep, regex %s)" $relabeling.regex }}
{{- else if and (eq $action "labelmap") (eq ($relabeling.replacement | default "$1") .label) }}
{{- printf "sets it (action labelmap, replacement %s)" .label }}
{{- end }}
{{- end }}

{{/*
Whether Prometheus can reach the metrics port past the chart's NetworkPolicy, read from the
policy as rendered. NetworkPolicies add up: the port is reachable unless a policy isolates the
pods' ingress (it lists Ingress in policyTypes, or lists no policyTypes) and none of its rules
admits the port. A rule admits it when it names no ports, or a port entry without a port, or
this one by name, number or range, from any peer (a rule without peers admits every peer).
Prints "true" or nothing.
*/}}
{{- define "meridian.metricsPortReachable" -}}
{{- $reachable := true }}
{{- if .Values.networkPolicy.enabled }}
{{- $metricsPort := int .Values.containerPorts.metrics }}
{{- range regexSplit "(?m)^---\\s*$" (include (print .Template.BasePath "/networkpolicy.yaml") .) -1 }}
{{- $policy := fromYaml . }}
{{- $types := $policy.spec.policyTypes | default list }}
{{- if and (eq ($policy.kind | default "") "NetworkPolicy") (or (not $types) (has "Ingress" $types)) }}
{{- $admits := false }}
{{- range $rule := $policy.spec.ingress }}
{{- $admits = or $admits (not $rule.ports) }}
{{- range $rule.ports }}
{{- if kindIs "string" .port }}
{{- $admits = or $admits (eq .port "metrics") }}
{{- else if .port }}
{{- $admits = or $admits (and (le (int .port) $metricsPort) (le $metricsPort (int (.endPort | default .port)))) }}
{{- else }}
{{- $admits = true }}
{{- end }}
{{- end }}
{{- end }}
{{- $reachable = and $reachable $admits }}
{{- end }}
{{- end }}
{{- end }}
{{- if $reachable }}true{{ end }}
{{- end }}

{{/*
The alert rules select this release's job (the ServiceMonitor's) and namespace. Where no such
target can exist, MeridianDown (absent(up)) would page forever and every other alert would be
blind, so the PrometheusRule refuses to render: without the ServiceMonitor, with a relabeling
that rewrites job or namespace, and with a NetworkPolicy no Prometheus can scrape through.
*/}}
{{- define "meridian.checkAlertTargets" -}}
{{- $target := printf "job=%q in namespace %q" (include "meridian.metricsJob" .) (include "meridian.namespace" .) }}
{{- $consequence := "MeridianDown would page forever and every other alert would be blind" }}
{{- if not .Values.serviceMonitor.enabled }}
{{- fail (printf "prometheusRule.enabled needs serviceMonitor.enabled: the alert rules watch %s, a scrape job only the chart's ServiceMonitor creates; without it %s. Enable serviceMonitor, or leave prometheusRule off." $target $consequence) }}
{{- end }}
{{- range $field := list "relabelings" "metricRelabelings" }}
{{- range $index, $relabeling := get $.Values.serviceMonitor $field }}
{{- range $label := list "job" "namespace" }}
{{- with include "meridian.relabelingChanges" (dict "relabeling" $relabeling "label" $label) }}
{{- fail (printf "serviceMonitor.%s[%d] %s, the %s label the alert rules and the dashboard select (%s): %s. Leave job and namespace as the Prometheus Operator sets them." $field $index . $label $target $consequence) }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}
{{- if not (include "meridian.metricsPortReachable" .) }}
{{- fail (printf "networkPolicy lets no pod reach the metrics port (no ingress rule admits port metrics), so no Prometheus can scrape %s: %s. Admit Prometheus in networkPolicy.metrics, or leave prometheusRule off." $target $consequence) }}
{{- end }}
{{- end }}

{{/*
Alertmanager matchers as files/alertmanager.yaml writes them (`alertname="MeridianDown"`), as
the Prometheus Operator's AlertmanagerConfig takes them ({name, value, matchType}), in YAML.
*/}}
{{- define "meridian.alertmanagerMatchers" -}}
{{- $pattern := "^\\s*([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|!~|!=|=)\\s*\"(.*)\"\\s*$" }}
{{- $matchers := list }}
{{- range . }}
{{- if not (regexMatch $pattern .) }}
{{- fail (printf "files/alertmanager.yaml: the matcher %s is not of the form label=\"value\" (or !=, =~, !~)" .) }}
{{- end }}
{{- $matchers = append $matchers (dict "name" (regexReplaceAll $pattern . "${1}") "matchType" (regexReplaceAll $pattern . "${2}") "value" (regexReplaceAll $pattern . "${3}")) }}
{{- end }}
{{- toYaml $matchers }}
{{- end }}

{{/*
Argo Rollouts' rollout_info of the release's Rollout in phase `.phase`, one series per
namespace and name. Its controller exports it per Rollout; scraped as a target of the
controller's own namespace, the Rollout's `namespace` arrives as `exported_namespace`, and as
`namespace` where the scrape honors labels: both are matched.
*/}}
{{- define "meridian.rolloutInPhase" -}}
{{- $rollout := printf "name=%q, phase=%q" (include "meridian.fullname" .context) .phase }}
{{- $namespace := include "meridian.namespace" .context }}
{{- printf "max by (namespace, name) (\n  label_replace(rollout_info{exported_namespace=%q, %s}, \"namespace\", \"$1\", \"exported_namespace\", \"(.+)\")\n  or\n  rollout_info{namespace=%q, %s}\n)" $namespace $rollout $namespace $rollout }}
{{- end }}
