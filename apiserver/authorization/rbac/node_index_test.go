package rbac_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The Node authorizer follows the pods as they are bound and deleted: a
// kubelet may read a pod's secret once the pod is bound to its node, and
// not after the pod is gone.
func TestNodeAuthorizerFollowsBindingAndDeletion(t *testing.T) {
	ns := srv.NewNamespace(t)
	require.Equal(t, http.StatusCreated, srv.Admin(t, "POST", "/api/v1/namespaces/"+ns+"/serviceaccounts", `{"metadata":{"name":"default"}}`).Code)
	require.Equal(t, http.StatusCreated, srv.Admin(t, "POST", "/api/v1/namespaces/"+ns+"/secrets", `{"metadata":{"name":"s3"}}`).Code)
	resp := srv.Admin(t, "POST", "/api/v1/namespaces/"+ns+"/pods", `{"metadata":{"name":"later"},"spec":{
		"containers":[{"name":"c","image":"i","env":[{"name":"X","valueFrom":{"secretKeyRef":{"name":"s3","key":"k"}}}]}]}}`)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	secret := "/api/v1/namespaces/" + ns + "/secrets/s3"
	kubelet := func() int { return srv.As(t, "system:node:n3", []string{"system:nodes"}, "GET", secret, "").Code }
	require.Equal(t, http.StatusForbidden, kubelet(), "the pod is bound to no node yet")

	resp = srv.Admin(t, "POST", "/api/v1/namespaces/"+ns+"/pods/later/binding",
		`{"metadata":{"name":"later"},"target":{"kind":"Node","name":"n3"}}`)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	require.Eventually(t, func() bool { return kubelet() == http.StatusOK }, 20*time.Second, 10*time.Millisecond,
		"bound to n3: its kubelet may read the secret")
	require.Equal(t, http.StatusForbidden, srv.As(t, "system:node:n4", []string{"system:nodes"}, "GET", secret, "").Code, "another kubelet may not")

	require.Equal(t, http.StatusOK, srv.Admin(t, "DELETE", "/api/v1/namespaces/"+ns+"/pods/later?gracePeriodSeconds=0", "").Code)
	require.Eventually(t, func() bool { return kubelet() == http.StatusForbidden }, 20*time.Second, 10*time.Millisecond,
		"the pod is gone: so is the relationship")
}
