package printers

import (
	"slices"
	"strings"
	"time"

	"kubeloop/api"
)

// The columns of CustomResourceDefinitions, as kube-apiserver v1.37 serves
// them: apiextensions-apiserver pkg/registry/customresourcedefinition/
// tableconvertor (crdConvertor). A creation time, not an age; the served
// versions with the storage one marked.
func crdPrinter() tablePrinter {
	return tablePrinter{columns: []tableColumn{
		nameColumn(),
		col("Scope", "string", "Cluster or Namespaced.", 0),
		col("Versions", "string", "The served versions; (storage) marks the one etcd holds.", 0),
		col("Created At", "date", "When the CRD was created (RFC 3339, UTC).", 0),
		col("Group", "string", "The API group.", 1),
		col("Kind", "string", "The kind of its custom resources.", 1),
		col("ShortNames", "string", "The short names.", 1),
		col("Established", "boolean", "Whether the CRD is Established.", 1),
	}, cells: crdCells}
}

func crdCells(obj api.Object, _ time.Time) []any {
	crd := obj.(*api.CustomResourceDefinition)
	var versions []string
	for _, v := range crd.Spec.Versions {
		if v.Served {
			label := v.Name
			if v.Storage {
				label += "(storage)"
			}
			versions = append(versions, label)
		}
	}
	slices.Sort(versions)
	established := false
	for _, c := range crd.Status.Conditions {
		if c.Type == api.CRDEstablished && c.Status == api.ConditionTrue {
			established = true
		}
	}
	return []any{crd.Name, string(crd.Spec.Scope), strings.Join(versions, ","),
		crd.CreationTimestamp.UTC().Format(time.RFC3339),
		crd.Spec.Group, crd.Spec.Names.Kind, strings.Join(crd.Spec.Names.ShortNames, ","), established}
}
