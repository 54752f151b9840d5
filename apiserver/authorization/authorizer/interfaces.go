package authorizer

import (
	"context"

	"kubeloop/apiserver/authentication/user"
)

// Attributes is one request as authorization sees it: who, which verb, and
// either a resource (IsResourceRequest) or a non-resource path.
type Attributes struct {
	User *user.Info
	// Verb is Kubernetes' verb: get, list, watch, create, update, patch,
	// delete, deletecollection, or a special one (impersonate, bind,
	// escalate, approve); for non-resource requests the lower-case HTTP
	// method.
	Verb              string
	Namespace         string
	APIGroup          string
	APIVersion        string
	Resource          string
	Subresource       string
	Name              string
	IsResourceRequest bool
	// Path is the URL path, read for non-resource requests (/healthz, /api).
	Path string
}

// IsReadOnly reports whether the verb only reads (get, list, watch), as
// Kubernetes' AttributesRecord.IsReadOnly.
func (a Attributes) IsReadOnly() bool {
	return a.Verb == "get" || a.Verb == "list" || a.Verb == "watch"
}

// Decision is an authorizer's answer.
type Decision int

const (
	// DecisionDeny: the request is refused, and no other authorizer is asked.
	DecisionDeny Decision = iota
	// DecisionAllow: the request may go on.
	DecisionAllow
	// DecisionNoOpinion: this authorizer does not decide; a union asks the
	// next one, and if none decides the request is refused.
	DecisionNoOpinion
)

// Authorizer decides one request. reason is a short text a 403 message may
// carry; err is for failures to decide (the filter answers 500), not for
// refusals.
type Authorizer interface {
	Authorize(ctx context.Context, a Attributes) (decision Decision, reason string, err error)
}

// AuthorizerFunc lets a function be an Authorizer.
type AuthorizerFunc func(ctx context.Context, a Attributes) (Decision, string, error)

// Authorize calls f.
func (f AuthorizerFunc) Authorize(ctx context.Context, a Attributes) (Decision, string, error) {
	return f(ctx, a)
}

// AlwaysAllow allows every request: the authorizer of a server without
// authorization (Kubernetes' --authorization-mode=AlwaysAllow).
func AlwaysAllow() Authorizer {
	return AuthorizerFunc(func(context.Context, Attributes) (Decision, string, error) {
		return DecisionAllow, "", nil
	})
}
