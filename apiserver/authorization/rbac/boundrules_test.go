package rbac_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The rules bound to a user are remembered between requests, and a change
// to the policy is seen at once after its watch event: a removed binding
// stops allowing, a new one allows.
func TestRemovedBindingStopsAllowingAtOnce(t *testing.T) {
	ns := srv.NewNamespace(t)
	require.Equal(t, http.StatusCreated, srv.Admin(t, "POST", rbacV1+"/namespaces/"+ns+"/roles",
		`{"metadata":{"name":"cm-reader"},"rules":[{"verbs":["list"],"apiGroups":[""],"resources":["configmaps"]}]}`).Code)
	cms := "/api/v1/namespaces/" + ns + "/configmaps"
	require.Equal(t, http.StatusForbidden, srv.As(t, "hank", nil, "GET", cms, "").Code, "no binding yet (and the denial is remembered)")

	require.Equal(t, http.StatusCreated, srv.Admin(t, "POST", rbacV1+"/namespaces/"+ns+"/rolebindings",
		`{"metadata":{"name":"hank-reads"},"roleRef":{"kind":"Role","name":"cm-reader"},"subjects":[{"kind":"User","name":"hank"}]}`).Code)
	require.Eventually(t, func() bool { return srv.As(t, "hank", nil, "GET", cms, "").Code == http.StatusOK },
		20*time.Second, 10*time.Millisecond, "the new binding allows")
	for range 3 {
		require.Equal(t, http.StatusOK, srv.As(t, "hank", nil, "GET", cms, "").Code, "remembered")
	}

	require.Equal(t, http.StatusOK, srv.Admin(t, "DELETE", rbacV1+"/namespaces/"+ns+"/rolebindings/hank-reads", "").Code)
	require.Eventually(t, func() bool { return srv.As(t, "hank", nil, "GET", cms, "").Code == http.StatusForbidden },
		20*time.Second, 10*time.Millisecond, "the removed binding no longer allows")

	// A change to the role itself counts as well.
	require.Equal(t, http.StatusCreated, srv.Admin(t, "POST", rbacV1+"/namespaces/"+ns+"/rolebindings",
		`{"metadata":{"name":"hank-reads-again"},"roleRef":{"kind":"Role","name":"cm-reader"},"subjects":[{"kind":"User","name":"hank"}]}`).Code)
	require.Eventually(t, func() bool { return srv.As(t, "hank", nil, "GET", cms, "").Code == http.StatusOK },
		20*time.Second, 10*time.Millisecond)
	require.Equal(t, http.StatusOK, srv.Admin(t, "PATCH", rbacV1+"/namespaces/"+ns+"/roles/cm-reader",
		`{"rules":[{"verbs":["get"],"apiGroups":[""],"resources":["configmaps"]}]}`).Code)
	require.Eventually(t, func() bool { return srv.As(t, "hank", nil, "GET", cms, "").Code == http.StatusForbidden },
		20*time.Second, 10*time.Millisecond, "the role lost list")
}
