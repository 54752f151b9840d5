package conformance

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// kubectlBinary is one real kubectl to test with.
type kubectlBinary struct {
	version string // "1.33", "1.32", or "env"/"path"
	path    string
}

// findKubectls finds the real kubectl binaries: $KUBECTL, else the
// versioned binaries the Google Cloud SDK installs beside the target of the
// kubectl on PATH (kubectl.1.33, kubectl.1.32), else kubectl itself.
func findKubectls() []kubectlBinary {
	if p := os.Getenv("KUBECTL"); p != "" {
		return []kubectlBinary{{version: "env", path: p}}
	}
	onPath, err := exec.LookPath("kubectl")
	if err != nil {
		return nil
	}
	var out []kubectlBinary
	if target, err := filepath.EvalSymlinks(onPath); err == nil {
		for _, v := range []string{"1.33", "1.32"} {
			p := filepath.Join(filepath.Dir(target), "kubectl."+v)
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				out = append(out, kubectlBinary{version: v, path: p})
			}
		}
	}
	if len(out) == 0 {
		out = append(out, kubectlBinary{version: "path", path: onPath})
	}
	return out
}

func requireKubectls(t *testing.T) []kubectlBinary {
	t.Helper()
	ks := findKubectls()
	if len(ks) == 0 {
		t.Skip("!!! NO KUBECTL FOUND: set $KUBECTL or put kubectl on PATH; the real-kubectl conformance tests did NOT run !!!")
	}
	return ks
}

// kubectl runs one binary against the test cluster, each command with a
// fresh discovery cache, in one namespace.
type kubectl struct {
	t         *testing.T
	bin       kubectlBinary
	namespace string
	env       []string
	// kubeconfig is the suite cluster's unless set (a test's own server).
	kubeconfig string
}

func (k *kubectl) kubeconfigPath() string {
	if k.kubeconfig != "" {
		return k.kubeconfig
	}
	return kl.KubeconfigPath
}

// result is one finished kubectl command.
type result struct {
	stdout, stderr string
	code           int
}

// out is stdout and stderr together, as a user sees them.
func (r result) out() string { return r.stdout + r.stderr }

func (k *kubectl) args(args []string) []string {
	base := []string{"--kubeconfig", k.kubeconfigPath(), "--cache-dir", k.t.TempDir()}
	if k.namespace != "" {
		base = append(base, "-n", k.namespace)
	}
	return append(base, args...)
}

func (k *kubectl) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, k.bin.path, k.args(args)...)
	cmd.Env = append(append(os.Environ(), "KUBECONFIG="+k.kubeconfigPath()), k.env...)
	return cmd
}

// run runs kubectl to completion (60 s at most).
func (k *kubectl) run(args ...string) result {
	k.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := k.command(ctx, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(k.t, err, "kubectl %v", args)
	}
	return result{stdout: stdout.String(), stderr: stderr.String(), code: code}
}

// ok runs kubectl and requires success; it returns stdout.
func (k *kubectl) ok(args ...string) string {
	k.t.Helper()
	r := k.run(args...)
	require.Equal(k.t, 0, r.code, "kubectl %s\n%s", strings.Join(args, " "), r.out())
	return r.stdout
}

// fails runs kubectl, requires exit code 1, and returns what it printed.
func (k *kubectl) fails(args ...string) string {
	k.t.Helper()
	r := k.run(args...)
	require.Equal(k.t, 1, r.code, "kubectl %s should fail\n%s", strings.Join(args, " "), r.out())
	return r.out()
}

// stdin runs kubectl with input on stdin (for -f -).
func (k *kubectl) stdin(input string, args ...string) result {
	k.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := k.command(ctx, args...)
	cmd.Stdin = strings.NewReader(input)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(k.t, err)
	}
	return result{stdout: stdout.String(), stderr: stderr.String(), code: code}
}

// background starts a long-running kubectl (get -w) and hands its stdout
// lines to a channel; stop kills it.
type background struct {
	lines  chan string
	cancel context.CancelFunc
	done   chan struct{}
	mu     sync.Mutex
	stderr bytes.Buffer
}

func (k *kubectl) start(args ...string) *background {
	k.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := k.command(ctx, args...)
	b := &background{lines: make(chan string, 100), cancel: cancel, done: make(chan struct{})}
	cmd.Stderr = &lockedWriter{mu: &b.mu, w: &b.stderr}
	pipe, err := cmd.StdoutPipe()
	require.NoError(k.t, err)
	require.NoError(k.t, cmd.Start())
	go func() {
		defer close(b.done)
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			b.lines <- sc.Text()
		}
		_ = cmd.Wait()
		close(b.lines)
	}()
	k.t.Cleanup(b.stop)
	return b
}

func (b *background) stop() {
	b.cancel()
	<-b.done
}

// waitLine waits for a line containing every one of the words.
func (b *background) waitLine(t *testing.T, words ...string) string {
	t.Helper()
	deadline := time.After(30 * time.Second)
	var seen []string
	for {
		select {
		case line, ok := <-b.lines:
			if !ok {
				b.mu.Lock()
				defer b.mu.Unlock()
				t.Fatalf("kubectl exited before printing %v; saw %q; stderr %s", words, seen, b.stderr.String())
			}
			seen = append(seen, line)
			all := true
			for _, w := range words {
				all = all && strings.Contains(line, w)
			}
			if all {
				return line
			}
		case <-deadline:
			t.Fatalf("no line with %v after 30s; saw %q", words, seen)
		}
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// writeFile writes a manifest into the test's temp dir.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

// header is the first line of a table, columns separated by single spaces.
func header(out string) string {
	first, _, _ := strings.Cut(out, "\n")
	return strings.Join(strings.Fields(first), " ")
}
