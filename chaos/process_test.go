package chaos

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/client"
)

// process is one kubeloop command running as a child process, its output
// in a log file under the test's directory (printed when the test fails).
type process struct {
	t    *testing.T
	name string
	cmd  *exec.Cmd
	log  string
	done chan struct{}
}

func startProcess(t *testing.T, name string, args ...string) *process {
	t.Helper()
	// CHAOS_LOG_DIR keeps the logs after the test (for reading a failure).
	logDir := os.Getenv("CHAOS_LOG_DIR")
	if logDir == "" {
		logDir = t.TempDir()
	}
	logPath := filepath.Join(logDir, fmt.Sprintf("%s-%d.log", name, time.Now().UnixNano()))
	logFile, err := os.Create(logPath)
	require.NoError(t, err)
	cmd := exec.Command(kubeloopBin, args...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	require.NoError(t, cmd.Start())
	p := &process{t: t, name: name, cmd: cmd, log: logPath, done: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		_ = logFile.Close()
		close(p.done)
	}()
	t.Cleanup(func() {
		p.kill()
		if t.Failed() {
			out, _ := os.ReadFile(logPath)
			if len(out) > 8000 {
				out = out[len(out)-8000:]
			}
			t.Logf("--- last output of %s:\n%s", name, out)
		}
	})
	return p
}

// kill sends SIGKILL (kill -9: no shutdown, no flush) and waits for the
// process to be gone.
func (p *process) kill() {
	select {
	case <-p.done:
		return
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

func (p *process) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// waitReady waits for the kubeconfig the process writes into dir and for
// /readyz to answer 200 through it; it returns a client built from that
// kubeconfig (so it speaks whatever the cluster serves: HTTP or HTTPS with
// credentials).
func (p *process) waitReady(dir string) *client.Client {
	p.t.Helper()
	kubeconfig := filepath.Join(dir, "kubeconfig")
	var c *client.Client
	ok := waitUntil(2*time.Minute, func() bool {
		if p.exited() {
			return false
		}
		cfg, err := client.ConfigFromKubeconfig(kubeconfig, "")
		if err != nil {
			return false
		}
		cl, err := client.NewForConfig(cfg)
		if err != nil {
			return false
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if _, err := cl.DoRaw(ctx, "GET", "/readyz", nil, nil); err != nil {
			return false
		}
		c = cl
		return true
	})
	require.True(p.t, ok, "%s never became ready (exited: %v; log %s)", p.name, p.exited(), p.log)
	return c
}
