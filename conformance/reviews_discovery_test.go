package conformance

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/discovery"
)

// client-go's discovery finds the reviews as create-only resources,
// serviceaccounts/token as a create-only subresource answering an
// authentication.k8s.io/v1 TokenRequest, and the RBAC kinds, as against
// kube-apiserver.
func TestDiscoveryOfReviewsTokenRequestAndRBAC(t *testing.T) {
	dc, err := discovery.NewDiscoveryClientForConfig(adminConfig(t))
	require.NoError(t, err)
	find := func(gv, name string) metav1.APIResource {
		t.Helper()
		list, err := dc.ServerResourcesForGroupVersion(gv)
		require.NoError(t, err, gv)
		for _, r := range list.APIResources {
			if r.Name == name {
				return r
			}
		}
		require.Failf(t, "not discovered", "%s in %s", name, gv)
		return metav1.APIResource{}
	}
	for _, name := range []string{"selfsubjectaccessreviews", "selfsubjectrulesreviews", "subjectaccessreviews"} {
		r := find("authorization.k8s.io/v1", name)
		assert.Equal(t, metav1.Verbs{"create"}, r.Verbs, name)
		assert.False(t, r.Namespaced, name)
	}
	assert.Equal(t, metav1.Verbs{"create"}, find("authentication.k8s.io/v1", "selfsubjectreviews").Verbs)
	token := find("v1", "serviceaccounts/token")
	assert.Equal(t, metav1.APIResource{Name: "serviceaccounts/token", Namespaced: true, Group: "authentication.k8s.io",
		Version: "v1", Kind: "TokenRequest", Verbs: metav1.Verbs{"create"}}, token)
	for _, name := range []string{"roles", "rolebindings", "clusterroles", "clusterrolebindings"} {
		assert.Contains(t, find("rbac.authorization.k8s.io/v1", name).Verbs, "watch", name)
	}

	// Aggregated discovery (what client-go asks for first) says the same.
	_, lists, err := dc.ServerGroupsAndResources()
	require.NoError(t, err)
	var ssar *metav1.APIResource
	for _, l := range lists {
		for i, r := range l.APIResources {
			if l.GroupVersion == "authorization.k8s.io/v1" && r.Name == "selfsubjectaccessreviews" {
				ssar = &l.APIResources[i]
			}
		}
	}
	require.NotNil(t, ssar)
	assert.Equal(t, metav1.Verbs{"create"}, ssar.Verbs)
}

// The real kubectl lists the reviews in api-resources with their one verb
// and explains them from OpenAPI.
func TestKubectlAPIResourcesAndExplainReviews(t *testing.T) {
	for _, bin := range requireKubectls(t) {
		t.Run(bin.version, func(t *testing.T) {
			k := &kubectl{t: t, bin: bin}
			out := k.ok("api-resources", "--api-group", "authorization.k8s.io", "-o", "wide")
			var lines []string
			for _, l := range strings.Split(out, "\n") {
				if f := strings.Fields(l); len(f) > 0 {
					lines = append(lines, strings.Join(f, " "))
				}
			}
			for _, want := range []string{
				"selfsubjectaccessreviews authorization.k8s.io/v1 false SelfSubjectAccessReview create",
				"selfsubjectrulesreviews authorization.k8s.io/v1 false SelfSubjectRulesReview create",
				"subjectaccessreviews authorization.k8s.io/v1 false SubjectAccessReview create",
			} {
				assert.True(t, slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, want) }), "%q in\n%s", want, out)
			}
			rbac := k.ok("api-resources", "--api-group", "rbac.authorization.k8s.io", "-o", "name")
			assert.Contains(t, rbac, "clusterrolebindings.rbac.authorization.k8s.io")

			explain := k.ok("explain", "selfsubjectaccessreview.spec.resourceAttributes")
			assert.Contains(t, explain, "KIND:       SelfSubjectAccessReview")
			assert.Contains(t, explain, "GROUP:      authorization.k8s.io")
			assert.Contains(t, explain, "verb")
			whoami := k.ok("explain", "selfsubjectreview.status.userInfo")
			assert.Contains(t, whoami, "username")
		})
	}
}
