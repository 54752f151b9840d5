package tokenfile

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func writeFile(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "tokens.csv")
	require.NoError(t, os.WriteFile(p, []byte(content), 0o600))
	return p
}

func TestNewCSVReadsKubernetesFormat(t *testing.T) {
	a, err := NewCSV(writeFile(t, `# comment
tok-alice,alice,1001,"dev,ops"
tok-bob, bob, 1002
,nobody,0
tok-alice,alice2,1003,
`))
	require.NoError(t, err)

	u, ok, err := a.AuthenticateToken(context.Background(), "tok-alice")
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, "alice2", u.Name, "the last line of a duplicate token wins")
	assert.Empty(t, u.Groups)

	u, ok, err = a.AuthenticateToken(context.Background(), "tok-bob")
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, "bob", u.Name)
	assert.Equal(t, "1002", u.UID)

	_, ok, err = a.AuthenticateToken(context.Background(), "")
	assert.NoError(t, err)
	assert.False(t, ok, "an empty token never authenticates")
	_, ok, err = a.AuthenticateToken(context.Background(), "tok-carol")
	assert.NoError(t, err)
	assert.False(t, ok)
}

func TestNewCSVSplitsGroups(t *testing.T) {
	a, err := NewCSV(writeFile(t, "t1,alice,1,\"dev, ops\"\n"))
	require.NoError(t, err)
	u, ok, err := a.AuthenticateToken(context.Background(), "t1")
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, []string{"dev", "ops"}, u.Groups)
}

func TestNewCSVRejectsShortLines(t *testing.T) {
	p := writeFile(t, "t1,alice\n")
	_, err := NewCSV(p)
	assert.EqualError(t, err, "token file '"+p+"' must have at least 3 columns (token, user name, user uid), found 2")
}

func TestNewCSVMissingFile(t *testing.T) {
	_, err := NewCSV(filepath.Join(t.TempDir(), "absent"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}
