package api

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// StatusReason is the machine-readable why of a failure. Clients branch on it
// (kubectl prints "Error from server (NotFound)", client-go's IsNotFound).
type StatusReason string

// The reasons kubeloop returns; the strings are Kubernetes' own.
const (
	StatusReasonUnknown               StatusReason = ""
	StatusReasonNotFound              StatusReason = "NotFound"
	StatusReasonAlreadyExists         StatusReason = "AlreadyExists"
	StatusReasonConflict              StatusReason = "Conflict"
	StatusReasonInvalid               StatusReason = "Invalid"
	StatusReasonBadRequest            StatusReason = "BadRequest"
	StatusReasonGone                  StatusReason = "Gone"
	StatusReasonExpired               StatusReason = "Expired"
	StatusReasonMethodNotAllowed      StatusReason = "MethodNotAllowed"
	StatusReasonUnsupportedMediaType  StatusReason = "UnsupportedMediaType"
	StatusReasonRequestEntityTooLarge StatusReason = "RequestEntityTooLarge"
	StatusReasonNotAcceptable         StatusReason = "NotAcceptable"
	StatusReasonInternalError         StatusReason = "InternalError"
	StatusReasonTimeout               StatusReason = "Timeout"
	StatusReasonServiceUnavailable    StatusReason = "ServiceUnavailable"
	StatusReasonTooManyRequests       StatusReason = "TooManyRequests"
	StatusReasonForbidden             StatusReason = "Forbidden"
	StatusReasonUnauthorized          StatusReason = "Unauthorized"
)

// CauseType says what is wrong with one field of an Invalid object.
type CauseType string

// The cause types kubeloop's validation emits.
const (
	CauseTypeFieldValueNotFound       CauseType = "FieldValueNotFound"
	CauseTypeFieldValueRequired       CauseType = "FieldValueRequired"
	CauseTypeFieldValueDuplicate      CauseType = "FieldValueDuplicate"
	CauseTypeFieldValueInvalid        CauseType = "FieldValueInvalid"
	CauseTypeFieldValueNotSupported   CauseType = "FieldValueNotSupported"
	CauseTypeFieldValueForbidden      CauseType = "FieldValueForbidden"
	CauseTypeFieldValueTooLong        CauseType = "FieldValueTooLong"
	CauseTypeFieldValueTooMany        CauseType = "FieldValueTooMany"
	CauseTypeFieldValueTypeInvalid    CauseType = "FieldValueTypeInvalid"
	CauseTypeUnexpectedServerResponse CauseType = "UnexpectedServerResponse"
	CauseTypeFieldManagerConflict     CauseType = "FieldManagerConflict"
	CauseTypeResourceVersionTooLarge  CauseType = "ResourceVersionTooLarge"
	// CauseTypeNamespaceTerminating marks a create refused because its
	// namespace is being deleted; controllers treat it as "stop trying".
	CauseTypeNamespaceTerminating CauseType = "NamespaceTerminating"
)

// StatusCause is one field-level problem.
type StatusCause struct {
	// Machine-readable kind of problem, such as "FieldValueRequired"; the JSON
	// key is "reason".
	Type CauseType `json:"reason,omitempty" protobuf:"bytes,1,opt,name=reason"`
	// Human-readable description, fit to show as it is.
	Message string `json:"message,omitempty" protobuf:"bytes,2,opt,name=message"`
	// Path of the field at fault in JSON naming, such as
	// "spec.containers[0].image"; may repeat across causes.
	Field string `json:"field,omitempty" protobuf:"bytes,3,opt,name=field"`
}

// StatusDetails names the object a failure is about.
type StatusDetails struct {
	// Name of the object, when there is exactly one.
	Name string `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`
	// API group of the object's resource.
	Group string `json:"group,omitempty" protobuf:"bytes,2,opt,name=group"`
	// Kind of the object, or its resource name; may differ from the
	// requested kind.
	Kind string `json:"kind,omitempty" protobuf:"bytes,3,opt,name=kind"`
	// UID of the object, when there is exactly one.
	UID string `json:"uid,omitempty" protobuf:"bytes,6,opt,name=uid"`
	// Field-level problems, for reasons that have them (Invalid above all).
	Causes []StatusCause `json:"causes,omitempty" protobuf:"bytes,4,rep,name=causes" listType:"atomic"`
	// Seconds to wait before retrying, or before the other action the
	// reason calls for.
	RetryAfterSeconds int32 `json:"retryAfterSeconds,omitempty" protobuf:"varint,5,opt,name=retryAfterSeconds"`
}

// Status values.
const (
	StatusSuccess = "Success"
	StatusFailure = "Failure"
)

// Status is the body of every error reply (and of some successful deletes).
type Status struct {
	// Kind "Status" and apiVersion "v1".
	TypeMeta `json:",inline"`
	// Standard list metadata; usually empty.
	ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// "Success" or "Failure".
	Status string `json:"status,omitempty" protobuf:"bytes,2,opt,name=status"`
	// Human-readable description of the outcome.
	Message string `json:"message,omitempty" protobuf:"bytes,3,opt,name=message"`
	// Machine-readable why of a failure, such as "NotFound"; empty when not
	// known. It refines the HTTP code, never contradicts it.
	Reason StatusReason `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	// More data about the reason: the object concerned and field causes.
	Details *StatusDetails `json:"details,omitempty" protobuf:"bytes,5,opt,name=details"`
	// HTTP status code of the reply, 0 if not set.
	Code int32 `json:"code,omitempty" protobuf:"varint,6,opt,name=code"`
}

// StatusError is an error that carries the Status the server sends (or sent).
// Every error a caller may branch on is one of these.
type StatusError struct {
	// The Status as sent on the wire.
	ErrStatus Status
}

func (e *StatusError) Error() string { return e.ErrStatus.Message }

// Status returns the wire Status, with kind and apiVersion set.
func (e *StatusError) Status() Status {
	s := e.ErrStatus
	s.Kind, s.APIVersion = "Status", "v1"
	if s.Status == "" {
		s.Status = StatusFailure
	}
	return s
}

// GroupResource names a resource for messages: "pods", "replicasets.apps".
type GroupResource struct {
	// API group; empty for the core group.
	Group string
	// Plural lower-case resource name, such as "pods".
	Resource string
}

func (gr GroupResource) String() string {
	if gr.Group == "" {
		return gr.Resource
	}
	return gr.Resource + "." + gr.Group
}

func newStatusError(code int32, reason StatusReason, msg string, details *StatusDetails) *StatusError {
	return &StatusError{Status{
		TypeMeta: TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   StatusFailure, Code: code, Reason: reason, Message: msg, Details: details,
	}}
}

// NewNotFound: `pods "p1" not found`.
func NewNotFound(gr GroupResource, name string) *StatusError {
	return newStatusError(http.StatusNotFound, StatusReasonNotFound,
		fmt.Sprintf("%s %q not found", gr, name),
		&StatusDetails{Group: gr.Group, Kind: gr.Resource, Name: name})
}

// NewAlreadyExists: `pods "p1" already exists`.
func NewAlreadyExists(gr GroupResource, name string) *StatusError {
	return newStatusError(http.StatusConflict, StatusReasonAlreadyExists,
		fmt.Sprintf("%s %q already exists", gr, name),
		&StatusDetails{Group: gr.Group, Kind: gr.Resource, Name: name})
}

// NewConflict is a failed compare-and-swap; msg says why.
func NewConflict(gr GroupResource, name string, err error) *StatusError {
	return newStatusError(http.StatusConflict, StatusReasonConflict,
		fmt.Sprintf("Operation cannot be fulfilled on %s %q: %v", gr, name, err),
		&StatusDetails{Group: gr.Group, Kind: gr.Resource, Name: name})
}

// ErrObjectModified is the reason of the common Conflict.
var ErrObjectModified = errors.New(OptimisticLockErrorMsg)

// OptimisticLockErrorMsg is what Kubernetes says on a stale resourceVersion.
const OptimisticLockErrorMsg = "the object has been modified; please apply your changes to the latest version and try again"

// NewInvalid: `The Pod "bad" is invalid: spec.x: Invalid value: ...`.
func NewInvalid(group, kind, name string, causes []StatusCause) *StatusError {
	parts := make([]string, 0, len(causes))
	for _, c := range causes {
		if c.Field != "" {
			parts = append(parts, c.Field+": "+c.Message)
		} else {
			parts = append(parts, c.Message)
		}
	}
	qualified := kind
	if group != "" {
		// Kubernetes names the kind with its group: ReplicaSet.apps.
		qualified = kind + "." + group
	}
	msg := fmt.Sprintf("%s %q is invalid", qualified, name)
	switch len(parts) {
	case 0:
	case 1:
		msg += ": " + parts[0]
	default:
		msg += ": [" + strings.Join(parts, ", ") + "]"
	}
	return newStatusError(http.StatusUnprocessableEntity, StatusReasonInvalid, msg,
		&StatusDetails{Group: group, Kind: kind, Name: name, Causes: causes})
}

// NewForbidden is 403: the request is understood and refused.
// Message: `pods "p1" is forbidden: <reason>`, or `forbidden: <reason>`
// when no resource is concerned (a non-resource URL).
func NewForbidden(gr GroupResource, name string, err error) *StatusError {
	var msg string
	switch {
	case gr.Resource == "":
		msg = fmt.Sprintf("forbidden: %v", err)
	case name == "":
		msg = fmt.Sprintf("%s is forbidden: %v", gr, err)
	default:
		msg = fmt.Sprintf("%s %q is forbidden: %v", gr, name, err)
	}
	return newStatusError(http.StatusForbidden, StatusReasonForbidden, msg,
		&StatusDetails{Group: gr.Group, Kind: gr.Resource, Name: name})
}

// NewUnauthorized is 401: no valid credentials. The authentication filter
// always says just "Unauthorized", so that a caller learns nothing about
// why its credentials failed (the server log does).
func NewUnauthorized(msg string) *StatusError {
	if msg == "" {
		msg = "not authorized"
	}
	return newStatusError(http.StatusUnauthorized, StatusReasonUnauthorized, msg, nil)
}

// NewTooManyRequests is 429: come back in retryAfterSeconds (clients read
// the Retry-After header the server sets beside it).
func NewTooManyRequests(msg string, retryAfterSeconds int32) *StatusError {
	return newStatusError(http.StatusTooManyRequests, StatusReasonTooManyRequests, msg,
		&StatusDetails{RetryAfterSeconds: retryAfterSeconds})
}

// NewBadRequest is a request the server cannot make sense of.
func NewBadRequest(msg string) *StatusError {
	return newStatusError(http.StatusBadRequest, StatusReasonBadRequest, msg, nil)
}

// NewResourceExpired is 410 Expired: a resourceVersion older than what is kept.
func NewResourceExpired(msg string) *StatusError {
	return newStatusError(http.StatusGone, StatusReasonExpired, msg, nil)
}

// NewGone is 410 Gone.
func NewGone(msg string) *StatusError {
	return newStatusError(http.StatusGone, StatusReasonGone, msg, nil)
}

// NewTooLargeResourceVersion: a read asked for a revision the server has not
// reached yet. Kubernetes answers 504 Timeout with a ResourceVersionTooLarge
// cause and asks the client to retry.
func NewTooLargeResourceVersion(minimumRV, currentRV uint64, retryAfterSeconds int32) *StatusError {
	return newStatusError(http.StatusGatewayTimeout, StatusReasonTimeout,
		fmt.Sprintf("Too large resource version: %d, current: %d", minimumRV, currentRV),
		&StatusDetails{
			Causes:            []StatusCause{{Type: CauseTypeResourceVersionTooLarge, Message: "Too large resource version"}},
			RetryAfterSeconds: retryAfterSeconds,
		})
}

// NewMethodNotSupported is 405.
func NewMethodNotSupported(gr GroupResource, verb string) *StatusError {
	return newStatusError(http.StatusMethodNotAllowed, StatusReasonMethodNotAllowed,
		fmt.Sprintf("%s is not supported on resources of kind %q", verb, gr.String()),
		&StatusDetails{Group: gr.Group, Kind: gr.Resource})
}

// NewUnsupportedMediaType is 415.
func NewUnsupportedMediaType(contentType string) *StatusError {
	return newStatusError(http.StatusUnsupportedMediaType, StatusReasonUnsupportedMediaType,
		fmt.Sprintf("the body of the request was in an unknown format - accepted media types include: application/json, application/merge-patch+json, application/json-patch+json, application/strategic-merge-patch+json (got %q)", contentType), nil)
}

// NewRequestEntityTooLarge is 413: a request body over the apiserver's
// limit, or an object too big for etcd to store. msg is the whole message;
// Kubernetes' NewRequestEntityTooLargeError takes only what follows its
// "Request entity too large: " prefix.
func NewRequestEntityTooLarge(msg string) *StatusError {
	return newStatusError(http.StatusRequestEntityTooLarge, StatusReasonRequestEntityTooLarge, msg, nil)
}

// NewInternalError is 500; it never carries a stack, only the message.
func NewInternalError(err error) *StatusError {
	return newStatusError(http.StatusInternalServerError, StatusReasonInternalError,
		fmt.Sprintf("Internal error occurred: %v", err),
		&StatusDetails{Causes: []StatusCause{{Message: err.Error()}}})
}

// NewServiceUnavailable is 503.
func NewServiceUnavailable(msg string) *StatusError {
	return newStatusError(http.StatusServiceUnavailable, StatusReasonServiceUnavailable, msg, nil)
}

// NewTimeoutError is 504 Timeout.
func NewTimeoutError(msg string, retryAfterSeconds int32) *StatusError {
	return newStatusError(http.StatusGatewayTimeout, StatusReasonTimeout, msg,
		&StatusDetails{RetryAfterSeconds: retryAfterSeconds})
}

// ReasonForError returns the reason of a StatusError anywhere in err's chain.
// errors.AsType, not errors.As: As's target escapes, so every call, even
// for the nil error most requests end with, allocated one.
func ReasonForError(err error) StatusReason {
	if se, ok := errors.AsType[*StatusError](err); ok {
		return se.ErrStatus.Reason
	}
	return StatusReasonUnknown
}

// CodeForError returns the HTTP code of a StatusError in err's chain, or 0.
func CodeForError(err error) int32 {
	if se, ok := errors.AsType[*StatusError](err); ok {
		return se.ErrStatus.Code
	}
	return 0
}

func IsNotFound(err error) bool      { return ReasonForError(err) == StatusReasonNotFound }
func IsAlreadyExists(err error) bool { return ReasonForError(err) == StatusReasonAlreadyExists }
func IsConflict(err error) bool      { return ReasonForError(err) == StatusReasonConflict }
func IsInvalid(err error) bool       { return ReasonForError(err) == StatusReasonInvalid }
func IsBadRequest(err error) bool    { return ReasonForError(err) == StatusReasonBadRequest }
func IsForbidden(err error) bool     { return ReasonForError(err) == StatusReasonForbidden }
func IsUnauthorized(err error) bool  { return ReasonForError(err) == StatusReasonUnauthorized }
func IsTooManyRequests(err error) bool {
	return ReasonForError(err) == StatusReasonTooManyRequests
}

// IsRequestEntityTooLarge is true for 413: the body or the object it makes
// is too big to accept or to store.
func IsRequestEntityTooLarge(err error) bool {
	return ReasonForError(err) == StatusReasonRequestEntityTooLarge
}

// IsExpired is true for 410 Expired and 410 Gone: both mean "re-list".
func IsExpired(err error) bool {
	r := ReasonForError(err)
	return r == StatusReasonExpired || r == StatusReasonGone
}

// IsTooLargeResourceVersion is true for the 504 whose cause says the
// requested revision is ahead of the server.
func IsTooLargeResourceVersion(err error) bool {
	se, ok := errors.AsType[*StatusError](err)
	if !ok || se.ErrStatus.Details == nil {
		return false
	}
	for _, c := range se.ErrStatus.Details.Causes {
		if c.Type == CauseTypeResourceVersionTooLarge {
			return true
		}
	}
	return false
}
