package handlers

import (
	"net/http"
	"reflect"

	"kubeloop/api"
	"kubeloop/apiserver/fieldmanager"
)

// fieldManagerOf reads a write's fieldManager parameter and names the
// writer: the parameter, else what the User-Agent starts with
// ("kubectl/v1.33.1 (linux/amd64) ..." is "kubectl"). A parameter that is
// too long or not printable is 422 on the verb's options kind.
// Kubernetes: handlers/create.go managerOrUserAgent and the
// ValidateCreateOptions/ValidateUpdateOptions/ValidatePatchOptions calls.
func fieldManagerOf(req *http.Request, optionsKind string) (param, manager string, err error) {
	param = query(req).Get("fieldManager")
	if causes := fieldmanager.ValidateManager(param); len(causes) > 0 {
		return "", "", newInvalidQualified("meta.k8s.io", optionsKind, "", causes)
	}
	return param, fieldmanager.ManagerOrUserAgent(param, req.UserAgent()), nil
}

// updateManagedFields records a create, update or non-apply patch by
// manager in obj's managedFields: what changed from live (nil for a
// create) moves to the manager. It runs after mutating admission, whose
// defaulting is what Kubernetes does while decoding, so defaulted fields
// belong to the writer as they do in Kubernetes.
func (scope *RequestScope) updateManagedFields(live, obj api.Object, manager string) {
	if scope.FieldManager == nil {
		return
	}
	if live == nil {
		live = reflect.New(reflect.TypeOf(obj).Elem()).Interface().(api.Object)
	}
	scope.FieldManager.Update(live, obj, manager)
}
