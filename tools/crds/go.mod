module meridian/tools/crds

go 1.25.0

require (
	github.com/prometheus-operator/prometheus-operator v0.85.0 // indirect
	sigs.k8s.io/gateway-api v1.4.1 // indirect
)
