{{- define "ess.fullname" -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "ess.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "ess.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: console
{{- end -}}

{{/* The Secret and key holding DATABASE_URL: CloudNativePG's application secret, or the given one. */}}
{{- define "ess.databaseSecret" -}}
{{- if .Values.database.cloudNativePG.enabled -}}
{{ include "ess.fullname" . }}-db-app
{{- else -}}
{{ required "database.existingUrlSecret is required without database.cloudNativePG" .Values.database.existingUrlSecret }}
{{- end -}}
{{- end -}}

{{- define "ess.databaseSecretKey" -}}
{{- if .Values.database.cloudNativePG.enabled -}}uri{{- else -}}url{{- end -}}
{{- end -}}
