package apiserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"kubeloop/api"
)

// toStatusError turns any error a handler meets into the Status the client
// sees. Errors that are not StatusErrors are server bugs or etcd trouble, so
// they become 500 InternalError; a cancelled request becomes 504.
func toStatusError(err error) *api.StatusError {
	var se *api.StatusError
	if errors.As(err, &se) {
		return se
	}
	return api.NewInternalError(err)
}

// writeStatus writes err as a Status body with its HTTP code.
func writeStatus(w http.ResponseWriter, err error) {
	se := toStatusError(err)
	st := se.Status()
	code := int(st.Code)
	if code == 0 {
		code = http.StatusInternalServerError
		st.Code = int32(code)
	}
	writeJSON(w, code, &st)
}

// writeJSON writes one JSON body. Encoding errors cannot be reported to the
// client any more once the header is out, so they are ignored.
func writeJSON(w http.ResponseWriter, code int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		body, _ = json.Marshal(api.NewInternalError(fmt.Errorf("encode response: %w", err)).Status())
		code = http.StatusInternalServerError
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, _ = w.Write(body)
	_, _ = w.Write([]byte("\n"))
}

// fieldCause is one field error in Kubernetes' wording: the message starts
// with the kind of problem ("Invalid value: ...", "Forbidden: ...").
func fieldCause(t api.CauseType, field, detail string) api.StatusCause {
	return api.StatusCause{Type: t, Field: field, Message: detail}
}

// newInvalidQualified is 422 Invalid for objects outside the registry
// (ListOptions.meta.k8s.io, Scale.autoscaling): Kubernetes names them
// group-qualified in the message.
func newInvalidQualified(group, kind, name string, causes []api.StatusCause) *api.StatusError {
	se := api.NewInvalid(group, kind, name, causes)
	if group != "" {
		se.ErrStatus.Message = strings.Replace(se.ErrStatus.Message, kind+" ", kind+"."+group+" ", 1)
	}
	return se
}

// notFoundResource is the 404 for a URL under a known group that names no
// resource kubeloop serves. Kubernetes answers it with an empty-details Status.
func notFoundResource() *api.StatusError {
	return &api.StatusError{ErrStatus: api.Status{
		TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   api.StatusFailure,
		Message:  "the server could not find the requested resource",
		Reason:   api.StatusReasonNotFound,
		Details:  &api.StatusDetails{},
		Code:     http.StatusNotFound,
	}}
}

// successStatus is the body of a write that returns no object (binding).
func successStatus(code int) *api.Status {
	return &api.Status{
		TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   api.StatusSuccess,
		Code:     int32(code),
	}
}
