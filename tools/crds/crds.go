// Package crds pins the projects whose CustomResourceDefinitions the chart's optional
// objects need (ServiceMonitor, PrometheusRule, HTTPRoute). Nothing is built from it:
// the cluster tests read the CRD files from these modules' downloaded sources.
package crds
