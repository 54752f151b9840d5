package api

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDescriptionsAreCurrent regenerates the description table from this
// package's comments and requires it to equal the checked-in one: a doc
// comment edited without `go generate ./api` fails here, before the
// apiserver serves an outdated description.
func TestDescriptionsAreCurrent(t *testing.T) {
	out := filepath.Join(t.TempDir(), "descriptions.go")
	cmd := exec.Command("go", "run", "../cmd/openapi-gen", "-out", out)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Run())
	want, err := os.ReadFile(out)
	require.NoError(t, err)
	have, err := os.ReadFile("zz_generated.descriptions.go")
	require.NoError(t, err)
	require.True(t, string(want) == string(have),
		"zz_generated.descriptions.go is stale: run `go generate ./api`")
}

func TestDescriptionOfTypeAndOfField(t *testing.T) {
	assert.NotEmpty(t, Description("Pod", ""))
	assert.Empty(t, Description("Pod", "NoSuchField"))
	assert.Empty(t, Description("NoSuchType", ""))
}
