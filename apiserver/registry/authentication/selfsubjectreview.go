package authentication

import (
	"context"
	"fmt"
	"slices"

	"kubeloop/api"
	"kubeloop/apiserver/authentication/user"
	"kubeloop/apiserver/registry/rest"
)

// Resources is SelfSubjectReview as the apiserver serves it:
// cluster-scoped, create-only, never stored.
func Resources() []api.ResourceInfo {
	return []api.ResourceInfo{{
		Group: "authentication.k8s.io", Version: "v1", Kind: "SelfSubjectReview",
		Resource: "selfsubjectreviews", Singular: "selfsubjectreview", Verbs: []string{"create"},
		New: func() api.Object { return &api.SelfSubjectReview{} },
	}}
}

// SelfSubjectReviewREST answers a SelfSubjectReview with the caller's
// user. The review has no spec: what it was sent with does not matter.
type SelfSubjectReviewREST struct{}

var (
	_ rest.Creater = SelfSubjectReviewREST{}
	_ rest.Scoper  = SelfSubjectReviewREST{}
)

func (SelfSubjectReviewREST) New() api.Object       { return &api.SelfSubjectReview{} }
func (SelfSubjectReviewREST) NamespaceScoped() bool { return false }

// Create fills status.userInfo from the request's user, after validating
// admission. Kubernetes: selfsubjectreview/rest.go (REST.Create).
func (SelfSubjectReviewREST) Create(ctx context.Context, obj api.Object, createValidation rest.ValidateObjectFunc, _ *rest.CreateOptions) (api.Object, error) {
	review, ok := obj.(*api.SelfSubjectReview)
	if !ok {
		return nil, api.NewBadRequest(fmt.Sprintf("not a SelfSubjectReview: %T", obj))
	}
	if createValidation != nil {
		if err := createValidation(ctx, obj.DeepCopyObject()); err != nil {
			return nil, err
		}
	}
	u, ok := user.From(ctx)
	if !ok {
		return nil, api.NewBadRequest("no user found in the request")
	}
	out := &api.SelfSubjectReview{
		TypeMeta: review.TypeMeta,
		Status: api.SelfSubjectReviewStatus{UserInfo: api.UserInfo{
			Username: u.Name, UID: u.UID, Groups: slices.Clone(u.Groups), Extra: extra(u.Extra),
		}},
	}
	out.CreationTimestamp = api.Now()
	return out, nil
}

func extra(in map[string][]string) map[string]api.ExtraValue {
	if len(in) == 0 {
		return nil
	}
	out := make(map[string]api.ExtraValue, len(in))
	for k, v := range in {
		out[k] = api.ExtraValue{Items: slices.Clone(v)}
	}
	return out
}
