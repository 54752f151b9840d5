package apiserver

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"kubeloop/api"
)

// The fieldValidation directives (metav1.FieldValidationStrict, ...).
const (
	fieldValidationStrict = "Strict"
	fieldValidationWarn   = "Warn"
	fieldValidationIgnore = "Ignore"
)

// fieldValidation reads the fieldValidation query parameter. Warn is the
// default, as in Kubernetes; an unknown value is 422 on the verb's options
// kind (CreateOptions, UpdateOptions, PatchOptions).
func fieldValidation(r *http.Request, optionsKind string) (string, error) {
	v := r.URL.Query().Get("fieldValidation")
	switch v {
	case "":
		return fieldValidationWarn, nil
	case fieldValidationStrict, fieldValidationWarn, fieldValidationIgnore:
		return v, nil
	}
	return "", newInvalidQualified("meta.k8s.io", optionsKind, "", []api.StatusCause{fieldCause(
		api.CauseTypeFieldValueNotSupported, "fieldValidation",
		fmt.Sprintf(`Unsupported value: %q: supported values: "Ignore", "Strict", "Warn"`, v))})
}

// decodeObject decodes a request body into a new object of the kind,
// applying the fieldValidation directive. It returns the warnings to send
// (Warn) or a 400 naming every unknown and duplicate field (Strict).
func decodeObject(info *api.ResourceInfo, data []byte, directive string) (api.Object, []string, error) {
	obj := info.New()
	problems, err := decodeWithDirective(data, obj, directive)
	if err != nil {
		return nil, nil, api.NewBadRequest(err.Error())
	}
	if len(problems) > 0 && directive == fieldValidationStrict {
		return nil, nil, api.NewBadRequest(strictError(problems))
	}
	if err := checkTypeMeta(info, obj); err != nil {
		return nil, nil, err
	}
	return obj, problems, nil
}

// decodeWithDirective decodes data into obj and, unless the directive is
// Ignore, lists its unknown and duplicate fields in Kubernetes' words
// (`unknown field "spec.foo"`, `duplicate field "metadata.name"`).
func decodeWithDirective(data []byte, obj api.Object, directive string) ([]string, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("the body of the request is empty")
	}
	if directive == fieldValidationIgnore {
		return nil, api.Decode(data, obj)
	}
	unknown, dup, err := api.DecodeStrict(data, obj)
	if err != nil {
		return nil, err
	}
	problems := make([]string, 0, len(unknown)+len(dup))
	for _, f := range unknown {
		problems = append(problems, fmt.Sprintf("unknown field %q", f))
	}
	for _, f := range dup {
		problems = append(problems, fmt.Sprintf("duplicate field %q", f))
	}
	return problems, nil
}

func strictError(problems []string) string {
	return "strict decoding error: " + strings.Join(problems, ", ")
}

// checkTypeMeta refuses a body of another kind and fills in a missing
// apiVersion and kind (kubeloop's own clients may leave them out).
func checkTypeMeta(info *api.ResourceInfo, obj api.Object) error {
	tm := obj.GetTypeMeta()
	if tm.Kind != "" && tm.Kind != info.Kind {
		return api.NewBadRequest(fmt.Sprintf("the kind of the object (%s) does not match the kind of the URL (%s)", tm.Kind, info.Kind))
	}
	if tm.APIVersion != "" && tm.APIVersion != info.GroupVersion() {
		return api.NewBadRequest(fmt.Sprintf("the API version in the data (%s) does not match the expected API version (%s)", tm.APIVersion, info.GroupVersion()))
	}
	tm.Kind, tm.APIVersion = info.Kind, info.GroupVersion()
	return nil
}

// setWarnings adds one Warning header per problem, in RFC 7234 form with
// code 299, as Kubernetes does.
func setWarnings(w http.ResponseWriter, problems []string) {
	for _, p := range problems {
		w.Header().Add("Warning", fmt.Sprintf("299 - %s", quoteWarning(p)))
	}
}

func quoteWarning(s string) string {
	return `"` + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) + `"`
}

// maxBodyBytes is Kubernetes' limit on a request body (3 MiB).
const maxBodyBytes = 3 << 20

// readBody reads at most maxBodyBytes; a larger body is 413.
func readBody(r *http.Request) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes+1))
	if err != nil {
		return nil, api.NewBadRequest(fmt.Sprintf("reading the request body: %v", err))
	}
	if len(data) > maxBodyBytes {
		return nil, api.NewRequestEntityTooLarge("Request entity too large: limit is 3145728")
	}
	return data, nil
}

// checkJSONContentType accepts application/json (any parameters) and no
// Content-Type at all, which kubectl sends on some PUTs.
func checkJSONContentType(r *http.Request) error {
	ct := mediaType(r.Header.Get("Content-Type"))
	if ct == "" || ct == "application/json" || ct == "*/*" {
		return nil
	}
	return api.NewUnsupportedMediaType(r.Header.Get("Content-Type"))
}

func mediaType(ct string) string {
	mt, _, _ := strings.Cut(ct, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}
