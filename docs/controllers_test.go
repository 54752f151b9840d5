package docs

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// controller-manager.md's table of controllers is the manager's: the same
// names as controllers/known.go's KnownControllers, each in the package it
// names.
func TestControllerManagerDocListsTheKnownControllers(t *testing.T) {
	known, err := os.ReadFile("../controllers/known.go")
	require.NoError(t, err)
	_, table, ok := strings.Cut(string(known), "func KnownControllers()")
	require.True(t, ok)
	entry := regexp.MustCompile(`(?m)^\t\t"([A-Za-z0-9-]+)": func\(cc Context\) \(Runner, error\) \{\n((?:\t\t\t.*\n)+?)\t\t\},`)
	code := map[string]string{} // name → the constructor's body
	for _, m := range entry.FindAllStringSubmatch(table, -1) {
		code[m[1]] = m[2]
	}
	require.GreaterOrEqual(t, len(code), 10, "KnownControllers' entries were read")

	doc, err := os.ReadFile("controller-manager.md")
	require.NoError(t, err)
	row := regexp.MustCompile("(?m)^\\| `([a-z-]+)` \\| `controllers/([a-z]+)/` \\|")
	documented := map[string]string{} // name → package
	for _, m := range row.FindAllStringSubmatch(string(doc), -1) {
		documented[m[1]] = m[2]
	}
	for name, body := range code {
		pkg, ok := documented[name]
		if !assert.True(t, ok, "controller-manager.md's table lacks %q", name) {
			continue
		}
		assert.Contains(t, body, pkg+".", "%q is built by package %s", name, pkg)
	}
	for name := range documented {
		assert.Contains(t, code, name, "controller-manager.md lists %q, which KnownControllers does not know", name)
	}
}
