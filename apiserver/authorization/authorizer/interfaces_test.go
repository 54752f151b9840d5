package authorizer

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/apiserver/authentication/user"
)

func TestIsReadOnly(t *testing.T) {
	for verb, want := range map[string]bool{
		"get": true, "list": true, "watch": true,
		"create": false, "update": false, "patch": false, "delete": false,
		"deletecollection": false, "impersonate": false,
	} {
		assert.Equal(t, want, Attributes{Verb: verb}.IsReadOnly(), verb)
	}
}

func TestAlwaysAllowAllowsAnyone(t *testing.T) {
	d, reason, err := AlwaysAllow().Authorize(context.Background(), Attributes{
		User: &user.Info{Name: user.Anonymous}, Verb: "delete", Resource: "nodes",
	})
	require.NoError(t, err)
	assert.Equal(t, DecisionAllow, d)
	assert.Empty(t, reason)
}

func TestAuthorizerFuncPassesAttributes(t *testing.T) {
	var seen Attributes
	a := AuthorizerFunc(func(_ context.Context, at Attributes) (Decision, string, error) {
		seen = at
		return DecisionDeny, "no", nil
	})
	d, reason, err := a.Authorize(context.Background(), Attributes{Verb: "impersonate", Resource: "users", Name: "bob"})
	require.NoError(t, err)
	assert.Equal(t, DecisionDeny, d)
	assert.Equal(t, "no", reason)
	assert.Equal(t, "bob", seen.Name)
}
