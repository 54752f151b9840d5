package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The docs tell learners which flags each kubeloop command takes and what
// they default to. These tests hold those sentences to the commands.

func commandsByName() map[string]*cobra.Command {
	out := map[string]*cobra.Command{}
	for _, c := range append([]*cobra.Command{upCommand(), apiserverCommand(), traceCommand(), decodeCommand()}, componentCommands()...) {
		out[c.Name()] = c
	}
	return out
}

func readRepoFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", path))
	require.NoError(t, err)
	return string(b)
}

var (
	longFlag = regexp.MustCompile(`--([a-z][a-z0-9-]*)`)
	// A command line in the docs: `kubeloop up --nodes 5`, or a line of a
	// code block that starts with kubeloop.
	inlineCommand = regexp.MustCompile("`kubeloop ([a-z-]+)((?: [^`]*)?)`")
	blockCommand  = regexp.MustCompile(`(?m)^(?:go run \./cmd/)?kubeloop ([a-z-]+)(.*)$`)
)

// Every --flag written in a kubeloop command line of the docs is a flag of
// that command.
func TestDocumentedCommandLinesUseFlagsThatExist(t *testing.T) {
	cmds := commandsByName()
	docs, err := filepath.Glob("../../docs/*.md")
	require.NoError(t, err)
	checked := 0
	for _, doc := range append(docs, "../../README.md") {
		b, err := os.ReadFile(doc)
		require.NoError(t, err)
		text := string(b)
		var lines [][]string
		lines = append(lines, inlineCommand.FindAllStringSubmatch(text, -1)...)
		lines = append(lines, blockCommand.FindAllStringSubmatch(text, -1)...)
		for _, m := range lines {
			cmd := cmds[m[1]]
			if cmd == nil {
				continue // prose: "kubeloop is ..."
			}
			for _, f := range longFlag.FindAllStringSubmatch(m[2], -1) {
				checked++
				assert.NotNil(t, cmd.Flags().Lookup(f[1]), "%s: `kubeloop %s%s`: kubeloop %s has no --%s",
					filepath.Base(doc), m[1], m[2], m[1], f[1])
			}
		}
	}
	require.Greater(t, checked, 5, "the docs' command lines were found")
}

// README's "Flags of `kubeloop up`" paragraph names every flag of up and
// nothing else.
func TestREADMEListsEveryFlagOfUp(t *testing.T) {
	readme := readRepoFile(t, "README.md")
	_, para, ok := strings.Cut(readme, "Flags of `kubeloop up`:")
	require.True(t, ok, "README has the paragraph")
	para, _, _ = strings.Cut(para, "\n\n")
	para, _, _ = strings.Cut(para, "The\ncomponents also run")
	para, _, _ = strings.Cut(para, "The components also run")
	named := map[string]bool{}
	for _, m := range regexp.MustCompile("`--([a-z][a-z0-9-]*)").FindAllStringSubmatch(para, -1) {
		named[m[1]] = true
	}
	up := upCommand()
	up.Flags().VisitAll(func(f *pflag.Flag) {
		assert.True(t, named[f.Name], "README's flags of kubeloop up do not mention --%s", f.Name)
		delete(named, f.Name)
	})
	assert.Empty(t, named, "README names flags kubeloop up does not have")
}

// flagTable reads the rows "| `--flag` | default | ... |" of the table that
// follows marker in doc.
func flagTable(t *testing.T, doc, marker string) map[string]string {
	t.Helper()
	_, rest, ok := strings.Cut(doc, marker)
	require.True(t, ok, "no %q", marker)
	_, rest, ok = strings.Cut(rest, "| flag | default |")
	require.True(t, ok, "no flag table after %q", marker)
	rows := map[string]string{}
	row := regexp.MustCompile("^\\| `--([a-z][a-z0-9-]*)` \\| ([^|]*) \\|")
	for _, line := range strings.Split(rest, "\n")[2:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		m := row.FindStringSubmatch(line)
		require.NotNil(t, m, "a flag row: %q", line)
		rows[m[1]] = strings.TrimSpace(m[2])
	}
	require.NotEmpty(t, rows)
	return rows
}

// sameDefault compares a default as the docs write it with the flag's.
func sameDefault(f *pflag.Flag, doc string) bool {
	doc = strings.Trim(doc, "`")
	switch f.Value.Type() {
	case "duration":
		want, err := time.ParseDuration(doc)
		got, err2 := time.ParseDuration(f.DefValue)
		return err == nil && err2 == nil && want == got
	case "bool":
		return map[string]string{"off": "false", "on": "true"}[doc] == f.DefValue || doc == f.DefValue
	case "stringSlice":
		if doc == "all" {
			return f.DefValue == "[]"
		}
		return "["+doc+"]" == f.DefValue
	}
	if f.DefValue == "" {
		// No literal default: the doc describes where the value comes from
		// ("`$KUBECONFIG`, else ...", "`<data-dir>/...`").
		return strings.ContainsAny(doc, "$<")
	}
	return doc == f.DefValue
}

// controller-manager.md's tables: the controllers' flags (of both kubeloop
// up and kubeloop controller-manager) and the process's own, each with the
// default the command has.
func TestControllerManagerDocFlagTables(t *testing.T) {
	doc := readRepoFile(t, "docs/controller-manager.md")
	cmds := commandsByName()
	shared := flagTable(t, doc, "`kubeloop up` and `kubeloop controller-manager` both take")
	for name, def := range shared {
		for _, cmd := range []string{"up", "controller-manager"} {
			f := cmds[cmd].Flags().Lookup(name)
			if assert.NotNil(t, f, "kubeloop %s has no --%s", cmd, name) {
				assert.True(t, sameDefault(f, def), "kubeloop %s --%s defaults to %q, the doc says %q", cmd, name, f.DefValue, def)
			}
		}
	}
	own := flagTable(t, doc, "`kubeloop controller-manager`, the manager as a process of its own, also takes")
	cm := cmds["controller-manager"]
	for name, def := range own {
		f := cm.Flags().Lookup(name)
		if assert.NotNil(t, f, "kubeloop controller-manager has no --%s", name) {
			assert.True(t, sameDefault(f, def), "--%s defaults to %q, the doc says %q", name, f.DefValue, def)
		}
	}
	// Between them the tables name every flag of the command.
	cm.Flags().VisitAll(func(f *pflag.Flag) {
		_, a := shared[f.Name]
		_, b := own[f.Name]
		assert.True(t, a || b, "controller-manager.md's tables do not mention --%s", f.Name)
	})
}

func TestSameDefaultReadsTheDocsSpelling(t *testing.T) {
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	fs.Duration("d", 12*time.Hour, "")
	fs.Bool("b", false, "")
	fs.StringSlice("s", nil, "")
	fs.StringSlice("c", []string{"*"}, "")
	fs.Int("n", 12500, "")
	fs.String("k", "", "")
	assert.True(t, sameDefault(fs.Lookup("d"), "12h"))
	assert.False(t, sameDefault(fs.Lookup("d"), "30s"))
	assert.True(t, sameDefault(fs.Lookup("b"), "off"))
	assert.False(t, sameDefault(fs.Lookup("b"), "on"))
	assert.True(t, sameDefault(fs.Lookup("s"), "all"))
	assert.True(t, sameDefault(fs.Lookup("c"), "`*`"))
	assert.True(t, sameDefault(fs.Lookup("n"), "12500"))
	assert.False(t, sameDefault(fs.Lookup("n"), "1250"))
	assert.True(t, sameDefault(fs.Lookup("k"), "`$KUBECONFIG`, else `.kubeloop/kubeconfig`"))
	assert.False(t, sameDefault(fs.Lookup("k"), "kubeconfig"))
}
