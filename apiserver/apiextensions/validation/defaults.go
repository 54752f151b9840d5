package validation

import (
	"strings"

	"kubeloop/api"
)

// SetDefaults fills in what the apiserver defaults on every CRD it
// decodes: names.singular (the kind lowercased), names.listKind
// ("<kind>List"), the same for status.acceptedNames when set, and
// conversion strategy None (Kubernetes: apiextensions/v1/defaults.go,
// SetDefaults_CustomResourceDefinitionSpec); and, as the registry
// strategy's PrepareForCreate does, status.storedVersions from the
// storage version when it is empty (pkg/registry/customresourcedefinition/strategy.go).
func SetDefaults(crd *api.CustomResourceDefinition) {
	defaultNames(&crd.Spec.Names)
	if crd.Status.AcceptedNames.Kind != "" {
		defaultNames(&crd.Status.AcceptedNames)
	}
	if crd.Spec.Conversion == nil {
		crd.Spec.Conversion = &api.CustomResourceConversion{Strategy: api.NoneConverter}
	}
	if len(crd.Status.StoredVersions) == 0 {
		for _, v := range crd.Spec.Versions {
			if v.Storage {
				crd.Status.StoredVersions = append(crd.Status.StoredVersions, v.Name)
			}
		}
	}
}

func defaultNames(n *api.CustomResourceDefinitionNames) {
	if n.Singular == "" {
		n.Singular = strings.ToLower(n.Kind)
	}
	if n.ListKind == "" && n.Kind != "" {
		n.ListKind = n.Kind + "List"
	}
}
