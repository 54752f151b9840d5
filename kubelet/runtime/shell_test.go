package runtime

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestPlanFromCommandRunsTheShellSubset(t *testing.T) {
	sh := func(script string) []string { return []string{"sh", "-c", script} }
	cases := []struct {
		name  string
		argv  []string
		after time.Duration
		code  int32
	}{
		{"sleep then fail", sh("sleep 2; exit 1"), 2 * time.Second, 1},
		{"decimal sleep", sh("sleep 0.25"), 250 * time.Millisecond, 0},
		{"sleep suffixes add up", sh("sleep 1m 30s 0.5"), 90*time.Second + 500*time.Millisecond, 0},
		{"hours and days", sh("sleep 1h; sleep 1d"), 25 * time.Hour, 0},
		{"true", sh("true"), 0, 0},
		{"false", sh("false"), 0, 1},
		{"empty script exits 0", sh(""), 0, 0},
		{"last status is the code", sh("sleep 1; false"), time.Second, 1},
		{"semicolon does not short-circuit", sh("false; sleep 1"), time.Second, 0},
		{"and-and short-circuits", sh("false && sleep 5"), 0, 1},
		{"and-and skips only its own list", sh("false && sleep 5; sleep 1"), time.Second, 0},
		{"and-and runs on success", sh("sleep 1 && exit 4"), time.Second, 4},
		{"exit stops the script", sh("exit 3; sleep 10"), 0, 3},
		{"bare exit keeps the last status", sh("false; exit"), 0, 1},
		{"exit code wraps at 256", sh("exit 257"), 0, 1},
		{"skipped exit does not end", sh("false && exit 7; true"), 0, 0},
		{"newlines separate commands", sh("sleep 1\n\nexit 2\n"), time.Second, 2},
		{"trailing semicolon", sh("sleep 1;"), time.Second, 0},
		{"tabs and spaces", sh("\tsleep   1 ;  exit 0 "), time.Second, 0},
		{"other shells and paths", []string{"/bin/bash", "-c", "/bin/sleep 1; /bin/false"}, time.Second, 1},
		{"extra args are $0 and $1", []string{"sh", "-c", "exit 5", "name", "x"}, 0, 5},
		{"bare sleep", []string{"sleep", "2"}, 2 * time.Second, 0},
		{"bare true", []string{"/bin/true"}, 0, 0},
		{"bare false", []string{"false"}, 0, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			plan, ok := planFromCommand(tc.argv)
			require.True(t, ok, "%q is in the subset", tc.argv)
			require.Equal(t, tc.after, plan.after)
			require.Equal(t, tc.code, plan.code)
		})
	}
}

func TestPlanFromCommandRejectsEverythingElse(t *testing.T) {
	for _, argv := range [][]string{
		nil,
		{"nginx"},
		{"sh"},
		{"sh", "-c"},
		{"sh", "-e", "exit 1"},
		{"sleep"},
		{"sleep", "infinity"},
		{"sleep", "1e3"},
		{"sleep", "-1"},
		{"sleep", "1.2.3"},
		{"sleep", "."},
		{"sleep", "99999999999999d"},
		{"exit", "1"}, // exit is a shell builtin, not a program
		{"true", "x"},
		{"sh", "-c", "echo hi"},
		{"sh", "-c", "sleep 1; echo done"}, // every command must be known
		{"sh", "-c", "exit 0; nginx"},
		{"sh", "-c", "sleep 1 || exit 1"},
		{"sh", "-c", "sleep 1 &"},
		{"sh", "-c", "sleep 1 | true"},
		{"sh", "-c", "sleep $T"},
		{"sh", "-c", "sleep '1'"},
		{"sh", "-c", "exit -1"},
		{"sh", "-c", "exit 1 2"},
		{"sh", "-c", "; sleep 1"},
		{"sh", "-c", "sleep 1;; exit"},
		{"sh", "-c", "sleep 1 &&"},
		{"sh", "-c", "&& sleep 1"},
		{"sh", "-c", "while true; do sleep 1; done"},
		{"sh", "-c", "sleep 36500d; sleep 1d"}, // beyond what we let run out
	} {
		_, ok := planFromCommand(argv)
		require.False(t, ok, "%q runs forever", argv)
	}
}

func TestCommandPlansTheContainersExit(t *testing.T) {
	ctx := context.Background()
	f := NewFake(FakeConfig{})
	sb := newSandbox(t, f, "u1")
	id, err := f.CreateContainer(ctx, sb, ContainerConfig{Name: "c", Command: []string{"sh", "-c"}, Args: []string{"sleep 0.05; exit 3"}})
	require.NoError(t, err)
	forever, err := f.CreateContainer(ctx, sb, ContainerConfig{Name: "d", Command: []string{"nginx"}})
	require.NoError(t, err)
	require.NoError(t, f.StartContainer(ctx, id))
	require.NoError(t, f.StartContainer(ctx, forever))

	require.Eventually(t, func() bool { return containerByID(t, f, id).State == ContainerExited }, 10*time.Second, 5*time.Millisecond)
	c := containerByID(t, f, id)
	require.Equal(t, int32(3), c.ExitCode, "command and args are one command line")
	require.Equal(t, "Error", c.Reason)
	require.Equal(t, c.StartedAt.Add(50*time.Millisecond), c.FinishedAt)
	require.Equal(t, ContainerRunning, containerByID(t, f, forever).State, "a command outside the subset runs on")

	// Args alone are the command line (we have no image entrypoints).
	ok, err := f.CreateContainer(ctx, sb, ContainerConfig{Name: "e", Args: []string{"true"}})
	require.NoError(t, err)
	require.NoError(t, f.StartContainer(ctx, ok))
	c = containerByID(t, f, ok)
	require.Equal(t, ContainerExited, c.State)
	require.Equal(t, "Completed", c.Reason)

	// The annotations still win over the command.
	ann, err := f.CreateContainer(ctx, sb, ContainerConfig{Name: "f", Command: []string{"true"}, Annotations: map[string]string{AnnotationExitCode: "9"}})
	require.NoError(t, err)
	require.NoError(t, f.StartContainer(ctx, ann))
	require.Equal(t, int32(9), containerByID(t, f, ann).ExitCode)
}
