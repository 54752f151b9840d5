package printers_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRoleAndRoleBindingColumnsAreKubectls(t *testing.T) {
	ns := newNamespace(t)
	path := "/apis/rbac.authorization.k8s.io/v1/namespaces/" + ns + "/roles"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", `{"metadata":{"name":"reader"},
		"rules":[{"verbs":["get"],"apiGroups":[""],"resources":["pods"]}]}`).Code)
	names, _, row := getTable(t, path)
	assert.Equal(t, []string{"Name", "Created At"}, names)
	assert.Equal(t, "reader", row[0])
	assert.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`, row[1])

	path = "/apis/rbac.authorization.k8s.io/v1/namespaces/" + ns + "/rolebindings"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", `{"metadata":{"name":"readers"},
		"roleRef":{"kind":"Role","name":"reader"},
		"subjects":[{"kind":"User","name":"alice"},{"kind":"User","name":"bob"},{"kind":"Group","name":"dev"},
			{"kind":"ServiceAccount","name":"robot","namespace":"`+ns+`"}]}`).Code)
	names, wide, row := getTable(t, path)
	assert.Equal(t, []string{"Name", "Role", "Age", "Users", "Groups", "ServiceAccounts"}, names)
	assert.Equal(t, []bool{false, false, false, true, true, true}, wide)
	assert.Equal(t, []any{"readers", "Role/reader"}, row[:2])
	assert.Equal(t, []any{"alice, bob", "dev", ns + ":robot"}, row[3:])
}
