package handlers

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"kubeloop/api"
	"kubeloop/apiserver/endpoints/handlers/negotiation"
	"kubeloop/apiserver/endpoints/request"
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
	v := query(r).Get("fieldValidation")
	switch v {
	case "":
		return fieldValidationWarn, nil
	case fieldValidationStrict, fieldValidationWarn, fieldValidationIgnore:
		return v, nil
	}
	return "", newInvalidQualified("meta.k8s.io", optionsKind, "", []api.StatusCause{{
		Type: api.CauseTypeFieldValueNotSupported, Field: "fieldValidation",
		Message: fmt.Sprintf(`Unsupported value: %q: supported values: "Ignore", "Strict", "Warn"`, v)}})
}

// decodeBody reads the body of a POST or PUT into into, with the
// serializer its Content-Type names and the fieldValidation directive,
// and checks that its kind, namespace and name agree with the URL. It
// returns the warnings to send (Warn); with Strict, an unknown or duplicate
// field is 400. Kubernetes: endpoints/handlers/create.go (createHandler)
// and update.go (UpdateResource), the decode step.
func (scope *RequestScope) decodeBody(req *http.Request, ri *request.RequestInfo, into api.Object, optionsKind string) ([]string, error) {
	directive, err := fieldValidation(req, optionsKind)
	if err != nil {
		return nil, err
	}
	si, err := negotiation.NegotiateInputSerializer(req, scope.Serializers)
	if err != nil {
		return nil, err
	}
	data, err := readBody(req)
	if err != nil {
		return nil, err
	}
	problems, err := si.Decoder.Decode(data, into, directive != fieldValidationIgnore)
	if err != nil {
		return nil, asBadRequest(err)
	}
	if len(problems) > 0 && directive == fieldValidationStrict {
		return nil, api.NewBadRequest(strictError(problems))
	}
	if err := checkTypeMeta(scope.Kind, into); err != nil {
		return nil, err
	}
	if err := scope.checkURLMeta(ri, into); err != nil {
		return nil, err
	}
	return problems, nil
}

// asBadRequest keeps a decoder's StatusError (415 for a kind the media type
// cannot carry) and makes anything else a 400 naming the problem.
func asBadRequest(err error) error {
	var se *api.StatusError
	if errors.As(err, &se) {
		return err
	}
	return api.NewBadRequest(err.Error())
}

func strictError(problems []string) string {
	return "strict decoding error: " + strings.Join(problems, ", ")
}

// maxBodyBytes is Kubernetes' limit on a request body (3 MiB).
const maxBodyBytes = 3 << 20

// readBody reads at most maxBodyBytes; a larger body is 413. A body whose
// length the client sent is read into one buffer of that size (io.ReadAll
// starts at 512 bytes and grows, copying: five buffers for a 4 KiB pod).
func readBody(r *http.Request) ([]byte, error) {
	var buf bytes.Buffer
	if n := r.ContentLength; n > 0 && n <= maxBodyBytes {
		buf.Grow(int(n) + bytes.MinRead) // ReadFrom wants MinRead free to read EOF
	}
	_, err := buf.ReadFrom(io.LimitReader(r.Body, maxBodyBytes+1))
	data := buf.Bytes()
	if err != nil {
		return nil, api.NewBadRequest(fmt.Sprintf("reading the request body: %v", err))
	}
	if len(data) > maxBodyBytes {
		return nil, api.NewRequestEntityTooLarge("Request entity too large: limit is 3145728")
	}
	return data, nil
}

// newInvalidQualified is 422 Invalid for objects outside the registry
// (ListOptions.meta.k8s.io, CreateOptions.meta.k8s.io): Kubernetes names
// them group-qualified in the message.
func newInvalidQualified(group, kind, name string, causes []api.StatusCause) *api.StatusError {
	se := api.NewInvalid(group, kind, name, causes)
	if group != "" {
		se.ErrStatus.Message = strings.Replace(se.ErrStatus.Message, kind+" ", kind+"."+group+" ", 1)
	}
	return se
}
