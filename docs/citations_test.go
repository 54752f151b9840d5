// Package docs holds kubeloop's prose. This test keeps it honest: every
// citation of kubeloop code in docs/*.md, written `path/file.go:Name`,
// must name a file that exists and a func, method or type declared in it.
// Citations of Kubernetes (staging/..., pkg/..., cmd/kube-...) are not ours
// and are not checked.
package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var citation = regexp.MustCompile("`([a-z0-9_./-]+\\.go):([A-Za-z_][A-Za-z0-9_]*)`")

// ours reports whether a cited path is kubeloop's: its first directory is one
// of the repository's top-level directories (cmd/ only for our commands).
func ours(path string) bool {
	parts := strings.Split(path, "/")
	if len(parts) < 2 || parts[0] == "docs" {
		return false
	}
	if parts[0] == "cmd" {
		_, err := os.Stat(filepath.Join("..", "cmd", parts[1]))
		return err == nil
	}
	if parts[0] == "pkg" || parts[0] == "staging" {
		return false
	}
	if parts[0] == "bench" {
		return false // make bench's output, not committed: there only after a run
	}
	st, err := os.Stat(filepath.Join("..", parts[0]))
	return err == nil && st.IsDir()
}

func declares(src, name string) bool {
	decl := regexp.MustCompile(`(?m)^func (\([^)]*\) )?` + name + `\b|^(type|var|const) ` + name + `\b|^\s+` + name + `\s+(=|[A-Za-z*\[])`)
	return decl.MatchString(src)
}

func TestDocsCiteCodeThatExists(t *testing.T) {
	docs, err := filepath.Glob("*.md")
	require.NoError(t, err)
	require.NotEmpty(t, docs)
	checked := 0
	for _, doc := range docs {
		text, err := os.ReadFile(doc)
		require.NoError(t, err)
		for _, m := range citation.FindAllStringSubmatch(string(text), -1) {
			path, name := m[1], m[2]
			if !ours(path) {
				continue
			}
			checked++
			src, err := os.ReadFile(filepath.Join("..", path))
			if !assertNoErr(t, err, "%s cites %s, which does not exist", doc, path) {
				continue
			}
			if !declares(string(src), name) {
				t.Errorf("%s cites %s:%s, but %s declares no %s", doc, path, name, path, name)
			}
		}
	}
	require.Positive(t, checked, "the docs cite no kubeloop code at all")
}

func assertNoErr(t *testing.T, err error, format string, args ...any) bool {
	t.Helper()
	if err != nil {
		t.Errorf(format, args...)
		return false
	}
	return true
}

func TestCitationCheckerRejectsMissingNames(t *testing.T) {
	src := "package x\n\nfunc (s *Store) Create() {}\ntype Thing struct{}\n"
	require.True(t, declares(src, "Create"))
	require.True(t, declares(src, "Thing"))
	require.False(t, declares(src, "Delete"))
	require.True(t, declares("package x\n\nvar Modes = []string{}\n", "Modes"))
	require.True(t, declares("package x\n\nconst Limit = 3\n", "Limit"))
	require.True(t, ours("store/store.go"))
	require.False(t, ours("staging/src/k8s.io/client-go/tools/cache/reflector.go"))
	require.False(t, ours("cmd/kube-controller-manager/app/controllermanager.go"))
}

// filePath is a backticked path to one of our files or directories, with
// no function after it: `store/embedded.go`, `kubelet/runtime/`.
var filePath = regexp.MustCompile("`([a-z0-9_-]+(?:/[a-zA-Z0-9_.-]+)*(?:\\.(?:go|md|yaml|json|dlv|sh)|/))`")

// Every file or directory the docs name exists.
func TestDocsNameFilesThatExist(t *testing.T) {
	docs, err := filepath.Glob("*.md")
	require.NoError(t, err)
	docs = append(docs, "../README.md")
	checked := 0
	for _, doc := range docs {
		text, err := os.ReadFile(doc)
		require.NoError(t, err)
		for _, m := range filePath.FindAllStringSubmatch(string(text), -1) {
			path := m[1]
			if !ours(strings.TrimSuffix(path, "/") + "/x") {
				continue
			}
			checked++
			_, err := os.Stat(filepath.Join("..", path))
			assert.NoError(t, err, "%s names %s, which does not exist", doc, path)
		}
	}
	require.Positive(t, checked, "the docs name no kubeloop file at all")
}
