package runtime

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// docs/jobs.md tells learners, in a table, how long each command line runs
// and how it exits. Each row is checked here against planFromCommand.
func TestJobsDocShellTableIsWhatTheRuntimeDoes(t *testing.T) {
	doc, err := os.ReadFile("../../docs/jobs.md")
	require.NoError(t, err)
	_, table, ok := strings.Cut(string(doc), "| command line | runs | exits |\n|---|---|---|\n")
	require.True(t, ok, "jobs.md has the table")
	table, _, _ = strings.Cut(table, "\n\n")
	span := regexp.MustCompile("`([^`]+)`")
	rows := 0
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		require.Len(t, cells, 3, "%q", line)
		commands := span.FindAllStringSubmatch(cells[0], -1)
		require.NotEmpty(t, commands, "%q", line)
		for _, c := range commands {
			rows++
			argv := splitCommandLine(c[1])
			plan, ok := planFromCommand(argv)
			if cells[1] == "forever" {
				assert.False(t, ok, "jobs.md: %q runs forever", c[1])
				continue
			}
			if !assert.True(t, ok, "jobs.md: %q ends", c[1]) {
				continue
			}
			secs, err := strconv.ParseFloat(strings.TrimSuffix(cells[1], " s"), 64)
			require.NoError(t, err, "a duration in seconds: %q", cells[1])
			assert.Equal(t, time.Duration(secs*float64(time.Second)), plan.after, "jobs.md: %q runs %s", c[1], cells[1])
			code, err := strconv.Atoi(strings.Fields(cells[2])[0])
			require.NoError(t, err, "an exit code: %q", cells[2])
			assert.Equal(t, int32(code), plan.code, "jobs.md: %q exits %d", c[1], code)
		}
	}
	require.GreaterOrEqual(t, rows, 5)

	// "sh -c SCRIPT (or bash, ash, dash)"
	for _, sh := range []string{"sh", "bash", "ash", "dash"} {
		_, ok := planFromCommand([]string{sh, "-c", "exit 2"})
		assert.True(t, ok, "%s -c is in the subset", sh)
	}
}

// splitCommandLine splits a documented command line into argv: words, or a
// double-quoted string as one word.
func splitCommandLine(s string) []string {
	var argv []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		if s[0] == '"' {
			end := strings.IndexByte(s[1:], '"') + 1
			argv = append(argv, s[1:end])
			s = s[end+1:]
			continue
		}
		word, rest, _ := strings.Cut(s, " ")
		argv = append(argv, word)
		s = rest
	}
	return argv
}

func TestSplitCommandLine(t *testing.T) {
	assert.Equal(t, []string{"sh", "-c", "sleep 2; exit 1"}, splitCommandLine(`sh -c "sleep 2; exit 1"`))
	assert.Equal(t, []string{"sleep", "0.5"}, splitCommandLine("sleep 0.5"))
	assert.Equal(t, []string{"nginx"}, splitCommandLine("nginx"))
}
