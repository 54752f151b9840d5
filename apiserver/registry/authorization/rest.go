package authorization

import (
	"context"
	"fmt"

	"kubeloop/api"
	"kubeloop/apiserver/authorization/authorizer"
	"kubeloop/apiserver/registry/rest"
)

// Resources are the reviews as the apiserver serves them: cluster-scoped,
// create-only, never stored. Kubernetes: pkg/registry/authorization/rest/
// storage_authorization.go (NewRESTStorage) and the kinds' registration.
func Resources() []api.ResourceInfo {
	review := func(kind, resource string, newObj func() api.Object) api.ResourceInfo {
		return api.ResourceInfo{
			Group: api.AuthorizationGroupName, Version: "v1", Kind: kind,
			Resource: resource + "s", Singular: resource, Verbs: []string{"create"}, New: newObj,
		}
	}
	return []api.ResourceInfo{
		review("SelfSubjectAccessReview", "selfsubjectaccessreview", func() api.Object { return &api.SelfSubjectAccessReview{} }),
		review("SelfSubjectRulesReview", "selfsubjectrulesreview", func() api.Object { return &api.SelfSubjectRulesReview{} }),
		review("SubjectAccessReview", "subjectaccessreview", func() api.Object { return &api.SubjectAccessReview{} }),
	}
}

// NewStorage is the REST storage of each review, by resource.
func NewStorage(az authorizer.Authorizer, resolver RuleResolver) map[string]rest.Storage {
	return map[string]rest.Storage{
		"selfsubjectaccessreviews": &reviewREST[*api.SelfSubjectAccessReview]{newReview: func() *api.SelfSubjectAccessReview { return &api.SelfSubjectAccessReview{} }, answer: func(ctx context.Context, r *api.SelfSubjectAccessReview, admit func() error) error {
			return reviewSelf(ctx, az, r, admit)
		}},
		"subjectaccessreviews": &reviewREST[*api.SubjectAccessReview]{newReview: func() *api.SubjectAccessReview { return &api.SubjectAccessReview{} }, answer: func(ctx context.Context, r *api.SubjectAccessReview, admit func() error) error {
			return reviewSubject(ctx, az, r, admit)
		}},
		"selfsubjectrulesreviews": &reviewREST[*api.SelfSubjectRulesReview]{newReview: func() *api.SelfSubjectRulesReview { return &api.SelfSubjectRulesReview{} }, answer: func(ctx context.Context, r *api.SelfSubjectRulesReview, admit func() error) error {
			return reviewRules(ctx, resolver, r, admit)
		}},
	}
}

// reviewREST is a create-only storage: the review comes in, is answered
// in its status and goes back out; nothing is stored, so there is nothing
// to get, list or watch, and a dry run answers as a real one. Kubernetes:
// pkg/registry/authorization/selfsubjectaccessreview/rest.go (REST.Create)
// and its siblings.
type reviewREST[T api.Object] struct {
	newReview func() T
	// answer validates the review, calls admit (validating admission) and
	// fills in the status.
	answer func(ctx context.Context, review T, admit func() error) error
}

var (
	_ rest.Creater = (*reviewREST[*api.SelfSubjectAccessReview])(nil)
	_ rest.Scoper  = (*reviewREST[*api.SelfSubjectAccessReview])(nil)
)

func (r *reviewREST[T]) New() api.Object { return r.newReview() }

func (r *reviewREST[T]) NamespaceScoped() bool { return false }

func (r *reviewREST[T]) Create(ctx context.Context, obj api.Object, createValidation rest.ValidateObjectFunc, _ *rest.CreateOptions) (api.Object, error) {
	review, ok := obj.(T)
	if !ok {
		return nil, api.NewBadRequest(fmt.Sprintf("not a %T: %T", review, obj))
	}
	admit := func() error {
		if createValidation == nil {
			return nil
		}
		return createValidation(ctx, obj.DeepCopyObject())
	}
	if err := r.answer(ctx, review, admit); err != nil {
		return nil, err
	}
	return review, nil
}
