package api

import (
	"encoding/json"
	"reflect"
)

// The access reviews (authorization.k8s.io/v1): questions put to the
// apiserver's authorizer — may this user do this? (SubjectAccessReview),
// may I? (SelfSubjectAccessReview), what may I do in this namespace?
// (SelfSubjectRulesReview). They are never stored: a create answers in
// status and the object is forgotten. `kubectl auth can-i` sends the
// self reviews.

// AuthorizationGroupName is the API group of the access reviews.
const AuthorizationGroupName = "authorization.k8s.io"

// SubjectAccessReview asks whether any user may do something; only callers
// allowed to create it may ask about others.
type SubjectAccessReview struct {
	// Kind "SubjectAccessReview" and apiVersion "authorization.k8s.io/v1".
	TypeMeta `json:",inline"`
	// Standard object metadata; nothing in it is kept.
	ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// The request to check and whose it is.
	Spec SubjectAccessReviewSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`
	// The answer, filled in by the server.
	Status SubjectAccessReviewStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// SelfSubjectAccessReview asks whether the caller may do something.
type SelfSubjectAccessReview struct {
	// Kind "SelfSubjectAccessReview" and apiVersion "authorization.k8s.io/v1".
	TypeMeta `json:",inline"`
	// Standard object metadata; nothing in it is kept.
	ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// The request to check.
	Spec SelfSubjectAccessReviewSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`
	// The answer, filled in by the server.
	Status SubjectAccessReviewStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// ResourceAttributes describe a resource request, as the authorization
// filter would see it. Empty means "all" only where the authorizer says so
// (RBAC: nowhere but "*").
type ResourceAttributes struct {
	// The namespace ("" for cluster-scoped resources or all namespaces).
	Namespace string `json:"namespace,omitempty" protobuf:"bytes,1,opt,name=namespace"`
	// The verb: get, list, watch, create, update, patch, delete, ..., or "*".
	Verb string `json:"verb,omitempty" protobuf:"bytes,2,opt,name=verb"`
	// The API group ("" is core).
	Group string `json:"group,omitempty" protobuf:"bytes,3,opt,name=group"`
	// The API version.
	Version string `json:"version,omitempty" protobuf:"bytes,4,opt,name=version"`
	// The resource, plural.
	Resource string `json:"resource,omitempty" protobuf:"bytes,5,opt,name=resource"`
	// The subresource, if any.
	Subresource string `json:"subresource,omitempty" protobuf:"bytes,6,opt,name=subresource"`
	// The object's name ("" for collections and creates).
	Name string `json:"name,omitempty" protobuf:"bytes,7,opt,name=name"`
	// A field selector the request carries (kubeloop's authorizers ignore it).
	FieldSelector *FieldSelectorAttributes `json:"fieldSelector,omitempty" protobuf:"bytes,8,opt,name=fieldSelector"`
	// A label selector the request carries (kubeloop's authorizers ignore it).
	LabelSelector *LabelSelectorAttributes `json:"labelSelector,omitempty" protobuf:"bytes,9,opt,name=labelSelector"`
}

// LabelSelectorAttributes is a label selector as text or as requirements.
type LabelSelectorAttributes struct {
	// The selector as a list or watch would carry it.
	RawSelector string `json:"rawSelector,omitempty" protobuf:"bytes,1,opt,name=rawSelector"`
	// The selector already parsed.
	Requirements []LabelSelectorRequirement `json:"requirements,omitempty" protobuf:"bytes,2,rep,name=requirements"`
}

// FieldSelectorAttributes is a field selector as text or as requirements.
type FieldSelectorAttributes struct {
	// The selector as a list or watch would carry it.
	RawSelector string `json:"rawSelector,omitempty" protobuf:"bytes,1,opt,name=rawSelector"`
	// The selector already parsed.
	Requirements []FieldSelectorRequirement `json:"requirements,omitempty" protobuf:"bytes,2,rep,name=requirements"`
}

// FieldSelectorRequirement is one term of a field selector (meta/v1).
type FieldSelectorRequirement struct {
	// The field.
	Key string `json:"key" protobuf:"bytes,1,opt,name=key"`
	// In, NotIn, Exists or DoesNotExist.
	Operator string `json:"operator" protobuf:"bytes,2,opt,name=operator"`
	// The values, for In and NotIn.
	Values []string `json:"values,omitempty" protobuf:"bytes,3,rep,name=values"`
}

// NonResourceAttributes describe a request for a path outside the API.
type NonResourceAttributes struct {
	// The URL path.
	Path string `json:"path,omitempty" protobuf:"bytes,1,opt,name=path"`
	// The lower-case HTTP method.
	Verb string `json:"verb,omitempty" protobuf:"bytes,2,opt,name=verb"`
}

// SubjectAccessReviewSpec is the request and the user it is checked for.
// Exactly one of the attributes must be set, and a user or a group.
type SubjectAccessReviewSpec struct {
	// A resource request.
	ResourceAttributes *ResourceAttributes `json:"resourceAttributes,omitempty" protobuf:"bytes,1,opt,name=resourceAttributes"`
	// A non-resource request.
	NonResourceAttributes *NonResourceAttributes `json:"nonResourceAttributes,omitempty" protobuf:"bytes,2,opt,name=nonResourceAttributes"`
	// The user name.
	User string `json:"user,omitempty" protobuf:"bytes,3,opt,name=user"`
	// The user's groups.
	Groups []string `json:"groups,omitempty" protobuf:"bytes,4,rep,name=groups"`
	// The user's extra attributes.
	Extra map[string]ExtraValue `json:"extra,omitempty" protobuf:"bytes,5,rep,name=extra"`
	// The user's uid.
	UID string `json:"uid,omitempty" protobuf:"bytes,6,opt,name=uid"`
}

// ExtraValue is one extra attribute's values: a JSON array of strings.
// Its protobuf form is a message with the strings as field 1 (a map's
// value cannot be a bare repeated field), hence a struct here.
type ExtraValue struct {
	Items []string `protobuf:"bytes,1,rep,name=items"`
}

// MarshalJSON writes the values as an array, as Kubernetes' []string does.
func (v ExtraValue) MarshalJSON() ([]byte, error) {
	if v.Items == nil {
		return []byte("null"), nil
	}
	return json.Marshal(v.Items)
}

// UnmarshalJSON reads an array of strings.
func (v *ExtraValue) UnmarshalJSON(b []byte) error { return json.Unmarshal(b, &v.Items) }

// SelfSubjectAccessReviewSpec is the request checked for the caller.
type SelfSubjectAccessReviewSpec struct {
	// A resource request.
	ResourceAttributes *ResourceAttributes `json:"resourceAttributes,omitempty" protobuf:"bytes,1,opt,name=resourceAttributes"`
	// A non-resource request.
	NonResourceAttributes *NonResourceAttributes `json:"nonResourceAttributes,omitempty" protobuf:"bytes,2,opt,name=nonResourceAttributes"`
}

// SubjectAccessReviewStatus is the authorizer's answer.
type SubjectAccessReviewStatus struct {
	// Whether the request would be allowed.
	Allowed bool `json:"allowed" protobuf:"varint,1,opt,name=allowed"`
	// Whether an authorizer explicitly denied it (RBAC never does).
	Denied bool `json:"denied,omitempty" protobuf:"varint,4,opt,name=denied"`
	// Why, when an authorizer said.
	Reason string `json:"reason,omitempty" protobuf:"bytes,2,opt,name=reason"`
	// An error the authorizers met; the answer may still be right.
	EvaluationError string `json:"evaluationError,omitempty" protobuf:"bytes,3,opt,name=evaluationError"`
}

// SelfSubjectRulesReview lists what the caller may do in a namespace, as
// far as the authorizer can say (RBAC can; others may answer incomplete).
type SelfSubjectRulesReview struct {
	// Kind "SelfSubjectRulesReview" and apiVersion "authorization.k8s.io/v1".
	TypeMeta `json:",inline"`
	// Standard object metadata; nothing in it is kept.
	ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// The namespace asked about.
	Spec SelfSubjectRulesReviewSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`
	// The rules, filled in by the server.
	Status SubjectRulesReviewStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// SelfSubjectRulesReviewSpec names the namespace.
type SelfSubjectRulesReviewSpec struct {
	// The namespace whose rules are listed (cluster-wide ones included).
	Namespace string `json:"namespace,omitempty" protobuf:"bytes,1,opt,name=namespace"`
}

// SubjectRulesReviewStatus is the caller's rules.
type SubjectRulesReviewStatus struct {
	// What the caller may do to resources.
	ResourceRules []ResourceRule `json:"resourceRules" protobuf:"bytes,1,rep,name=resourceRules"`
	// What the caller may do to non-resource URLs.
	NonResourceRules []NonResourceRule `json:"nonResourceRules" protobuf:"bytes,2,rep,name=nonResourceRules"`
	// True when some rules could not be found (a binding to a missing role).
	Incomplete bool `json:"incomplete" protobuf:"varint,3,opt,name=incomplete"`
	// Why the list is incomplete.
	EvaluationError string `json:"evaluationError,omitempty" protobuf:"bytes,4,opt,name=evaluationError"`
}

// ResourceRule is a PolicyRule's resource part.
type ResourceRule struct {
	// The verbs allowed.
	Verbs []string `json:"verbs" protobuf:"bytes,1,rep,name=verbs"`
	// The API groups.
	APIGroups []string `json:"apiGroups,omitempty" protobuf:"bytes,2,rep,name=apiGroups"`
	// The resources.
	Resources []string `json:"resources,omitempty" protobuf:"bytes,3,rep,name=resources"`
	// The names, if restricted.
	ResourceNames []string `json:"resourceNames,omitempty" protobuf:"bytes,4,rep,name=resourceNames"`
}

// NonResourceRule is a PolicyRule's non-resource part.
type NonResourceRule struct {
	// The verbs allowed.
	Verbs []string `json:"verbs" protobuf:"bytes,1,rep,name=verbs"`
	// The URLs, "*" suffix a prefix.
	NonResourceURLs []string `json:"nonResourceURLs,omitempty" protobuf:"bytes,2,rep,name=nonResourceURLs"`
}

// ExtraValue's JSON is an array of strings: the strict decoder walks it as
// one (see jsonShaped).
func (*ExtraValue) jsonShapeOf(first byte) reflect.Type {
	if first == '[' || first == 'n' {
		return reflect.TypeFor[[]string]()
	}
	return nil
}
func (*ExtraValue) jsonShapeName() string { return "array of strings" }
