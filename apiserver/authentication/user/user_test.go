package user

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWithUserRoundTrip(t *testing.T) {
	_, ok := From(context.Background())
	assert.False(t, ok, "a bare context carries no user")

	u := &Info{Name: "alice", Groups: []string{"dev", AllAuthenticated}}
	got, ok := From(WithUser(context.Background(), u))
	require.True(t, ok)
	assert.Equal(t, "alice", got.Name)
	assert.True(t, got.InGroup(AllAuthenticated))
	assert.False(t, got.InGroup(SystemPrivilegedGroup))
}
