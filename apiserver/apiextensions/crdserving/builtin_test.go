package crdserving_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Kubernetes' naming controller checks a CRD's names only against the other
// CRDs of its group (getAcceptedNamesForGroup lists CRDs, never built-in
// kinds), so a CRD that repeats a built-in kind is accepted and Established;
// the built-in handlers sit before the CRD handler in the delegation chain,
// so the built-in kind keeps answering.
func TestCRDRepeatingABuiltInKindIsAcceptedButShadowed(t *testing.T) {
	const name = "roles.rbac.authorization.k8s.io"
	body := strings.NewReplacer(
		`"name":"widgets.rbac.authorization.k8s.io"`,
		`"name":"`+name+`","annotations":{"api-approved.kubernetes.io":"https://github.com/kubernetes/enhancements/pull/1111"}`,
		`"plural":"widgets","singular":"widget","kind":"Widget","shortNames":["wd"],"categories":["all"]`,
		`"plural":"roles","singular":"role","kind":"Role"`,
	).Replace(widgetCRD("rbac.authorization.k8s.io"))
	resp := srv.Do(t, "POST", crdsPath, "", body)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	t.Cleanup(func() { srv.Do(t, "DELETE", crdsPath+"/"+name, "", "") })
	waitEstablished(t, name)
	crd := srv.Do(t, "GET", crdsPath+"/"+name, "", "")
	assert.Equal(t, "True", conditionStatus(crd.Obj(t), "NamesAccepted"), crd.Body)

	ns := srv.NewNamespace(t)
	roles := "/apis/rbac.authorization.k8s.io/v1/namespaces/" + ns + "/roles"
	list := srv.Do(t, "GET", roles, "", "")
	require.Equal(t, http.StatusOK, list.Code, list.Body)
	assert.Equal(t, "RoleList", list.Obj(t)["kind"])
	// The built-in kind answers: a Role without spec.color, which the CRD's
	// schema requires, is created and has its rules.
	create := srv.Do(t, "POST", roles, "",
		`{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"r"},"rules":[{"apiGroups":[""],"resources":["pods"],"verbs":["get"]}]}`)
	require.Equal(t, http.StatusCreated, create.Code, create.Body)
	assert.NotNil(t, create.Obj(t)["rules"])
}

// A CRD may add a plural to a built-in group version (with the approval
// annotation such groups need) and is Established, but Kubernetes never
// serves it: the path lies under the built-in web service's root, which
// answers 404 for a resource it does not have. Discovery leaves it out.
func TestCRDAddingAPluralToABuiltInGroupVersionIsNotServed(t *testing.T) {
	const name = "widgets.rbac.authorization.k8s.io"
	body := strings.Replace(widgetCRD("rbac.authorization.k8s.io"),
		`"name":"`+name+`"`,
		`"name":"`+name+`","annotations":{"api-approved.kubernetes.io":"https://github.com/kubernetes/enhancements/pull/1111"}`, 1)
	resp := srv.Do(t, "POST", crdsPath, "", body)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	t.Cleanup(func() { srv.Do(t, "DELETE", crdsPath+"/"+name, "", "") })
	waitEstablished(t, name)

	ns := srv.NewNamespace(t)
	widgets := "/apis/rbac.authorization.k8s.io/v1/namespaces/" + ns + "/widgets"
	assert.Equal(t, http.StatusNotFound, srv.Do(t, "GET", widgets, "", "").Code)
	create := srv.Do(t, "POST", widgets, "", strings.Replace(widget("w", "red", 1), "GROUP", "rbac.authorization.k8s.io", 1))
	assert.Equal(t, http.StatusNotFound, create.Code, create.Body)
	disc := srv.Do(t, "GET", "/apis/rbac.authorization.k8s.io/v1", "", "")
	require.Equal(t, http.StatusOK, disc.Code)
	assert.NotContains(t, disc.Body, `"widgets"`)
	assert.Contains(t, disc.Body, `"roles"`, "the built-in resources are still listed")
}
