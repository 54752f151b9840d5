package handlers

import (
	"encoding/json"
	"fmt"
	"net/http"

	"kubeloop/api"
)

// dryRun reads a write's dryRun option — api.DryRunAll, the one value
// there is, runs every step of the write except storing it — the query parameter (repeatable),
// after any values a DeleteOptions body already carried. Any value but
// "All" is 422 on the verb's options kind, as Kubernetes' ValidateDryRun
// (staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go)
// answers it from the handler's ValidateCreateOptions, ValidateUpdateOptions,
// ValidatePatchOptions and ValidateDeleteOptions:
//
//	CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Bogus"]: supported values: "All"
func dryRun(r *http.Request, optionsKind string, fromBody []string) ([]string, error) {
	values := append(append([]string(nil), fromBody...), query(r)["dryRun"]...)
	for _, v := range values {
		if v != api.DryRunAll {
			bad, _ := json.Marshal(values)
			return nil, newInvalidQualified("meta.k8s.io", optionsKind, "", []api.StatusCause{{
				Type: api.CauseTypeFieldValueNotSupported, Field: "dryRun",
				Message: fmt.Sprintf(`Unsupported value: %s: supported values: %q`, bad, api.DryRunAll)}})
		}
	}
	if len(values) == 0 {
		return nil, nil
	}
	return values, nil
}
