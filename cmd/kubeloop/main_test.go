package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
)

// These tests run the real binary as a user would: built once, started as
// subprocesses, stopped with SIGTERM.

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "kubeloop-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "kubeloop")
	build := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", binary, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build kubeloop:", err)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

const (
	readyDeadline = 90 * time.Second
	deadline      = 60 * time.Second
	tick          = 50 * time.Millisecond
)

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

// process is a running kubeloop subprocess.
type process struct {
	name  string
	cmd   *exec.Cmd
	ready chan struct{}
	// done is closed when the process has exited; exitErr is Wait's result.
	done    chan struct{}
	exitErr error

	mu     sync.Mutex
	stderr []string
}

func start(t *testing.T, name string, args ...string) *process {
	t.Helper()
	p := &process{name: name, cmd: exec.Command(binary, args...), ready: make(chan struct{}), done: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), "KUBECONFIG=")
	stderr, err := p.cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, p.cmd.Start())
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64*1024), 1024*1024)
		readyOnce := sync.Once{}
		for sc.Scan() {
			line := sc.Text()
			p.mu.Lock()
			p.stderr = append(p.stderr, line)
			p.mu.Unlock()
			if strings.Contains(line, "kubeloop is ready") {
				readyOnce.Do(func() { close(p.ready) })
			}
		}
	}()
	go func() {
		<-readDone // Wait must follow the last read of the pipe.
		p.exitErr = p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			_ = p.cmd.Process.Kill()
			<-p.done
		}
		if t.Failed() {
			t.Logf("%s stderr:\n%s", p.name, p.log())
		}
	})
	return p
}

func (p *process) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.stderr, "\n")
}

func (p *process) waitReady(t *testing.T) {
	t.Helper()
	select {
	case <-p.ready:
	case <-p.done:
		t.Fatalf("%s exited before it was ready: %v\n%s", p.name, p.exitErr, p.log())
	case <-time.After(readyDeadline):
		t.Fatalf("%s never logged 'kubeloop is ready':\n%s", p.name, p.log())
	}
}

// terminate sends SIGTERM and returns the exit code.
func (p *process) terminate(t *testing.T) int {
	t.Helper()
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case <-p.done:
		var exitErr *exec.ExitError
		if errors.As(p.exitErr, &exitErr) {
			return exitErr.ExitCode()
		}
		require.NoError(t, p.exitErr)
		return 0
	case <-time.After(deadline):
		t.Fatalf("%s did not stop on SIGTERM:\n%s", p.name, p.log())
		return -1
	}
}

// findKubectl finds the real kubectl: $KUBECTL, else a kubectl.1.33 or
// kubectl.1.32 beside the kubectl on PATH (the Cloud SDK ships several),
// else kubectl itself.
func findKubectl() string {
	if k := os.Getenv("KUBECTL"); k != "" {
		return k
	}
	onPath, err := exec.LookPath("kubectl")
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(onPath); err == nil {
		for _, v := range []string{"kubectl.1.33", "kubectl.1.32"} {
			candidate := filepath.Join(filepath.Dir(real), v)
			if _, err := os.Stat(candidate); err == nil {
				return candidate
			}
		}
	}
	return onPath
}

func kubeloopClient(t *testing.T, kubeconfig string) *client.Client {
	t.Helper()
	cfg, err := client.ConfigFromKubeconfig(kubeconfig, "")
	require.NoError(t, err)
	cl, err := client.NewForConfig(cfg.ForComponent("cmd-test"))
	require.NoError(t, err)
	return cl
}

func TestUpServesKubectlStopsOnSIGTERMAndKeepsDataAcrossRestarts(t *testing.T) {
	kubectl := findKubectl()
	if kubectl == "" {
		t.Skip("SKIPPING: no kubectl found ($KUBECTL, kubectl on PATH): the real-kubectl check cannot run")
	}
	dataDir := filepath.Join(t.TempDir(), "d")
	addr := freeAddr(t)
	up := start(t, "kubeloop up", "up", "--data-dir", dataDir, "--listen", addr, "--nodes", "1")
	up.waitReady(t)
	kubeconfig := filepath.Join(dataDir, "kubeconfig")

	get := exec.Command(kubectl, "get", "ns", "--cache-dir", t.TempDir())
	get.Env = append(os.Environ(), "KUBECONFIG="+kubeconfig)
	out, err := get.CombinedOutput()
	require.NoError(t, err, "kubectl get ns:\n%s", out)
	require.Regexp(t, `(?m)^default\s+Active`, string(out))
	require.Contains(t, string(out), "kube-system")

	cl := kubeloopClient(t, kubeconfig)
	ctx := context.Background()
	_, err = client.For[*api.ConfigMap](cl).Namespace("default").Create(ctx,
		&api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "survivor"}, Data: map[string]string{"k": "v"}}, client.CreateOptions{})
	require.NoError(t, err)
	requireServiceAccountAdmission(t, cl)

	require.Equal(t, 0, up.terminate(t), "SIGTERM is a clean stop")

	again := start(t, "kubeloop up (restart)", "up", "--data-dir", dataDir, "--listen", addr, "--nodes", "1")
	again.waitReady(t)
	cl = kubeloopClient(t, kubeconfig)
	cm, err := client.For[*api.ConfigMap](cl).Namespace("default").Get(ctx, "survivor", client.GetOptions{})
	require.NoError(t, err, "objects survive a restart with the same data dir")
	require.Equal(t, "v", cm.Data["k"])
	require.Equal(t, 0, again.terminate(t))
}

// requireServiceAccountAdmission checks that the cluster behind cl runs
// the ServiceAccount admission plugin, as `kubeloop up` and `kubeloop
// apiserver` do by default: a pod naming an account nobody made is refused
// with Kubernetes' 403, and a pod naming none runs as "default" with its
// token mounted.
func requireServiceAccountAdmission(t *testing.T, cl *client.Client) {
	t.Helper()
	ctx := context.Background()
	pods := client.For[*api.Pod](cl).Namespace("default")
	pod := func(name, account string) *api.Pod {
		return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name},
			Spec: api.PodSpec{ServiceAccountName: account, Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
	}
	_, err := pods.Create(ctx, pod("ghost", "ghost"), client.CreateOptions{})
	var status *api.StatusError
	require.ErrorAs(t, err, &status)
	require.EqualValues(t, 403, status.ErrStatus.Code)
	require.EqualError(t, err, `pods "ghost" is forbidden: error looking up service account default/ghost: serviceaccount "ghost" not found`)

	waitCtx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	require.NoError(t, cluster.WaitForServiceAccount(waitCtx, cl, "default", api.DefaultServiceAccountName))
	created, err := pods.Create(ctx, pod("sa-default", ""), client.CreateOptions{})
	require.NoError(t, err)
	require.Equal(t, api.DefaultServiceAccountName, created.Spec.ServiceAccountName)
	require.Len(t, created.Spec.Volumes, 1)
	require.Regexp(t, `^kube-api-access-`, created.Spec.Volumes[0].Name)
	require.NoError(t, pods.Delete(ctx, "sa-default", api.DeleteOptions{}))
}

func TestComponentsRunAsSeparateProcesses(t *testing.T) {
	dataDir := filepath.Join(t.TempDir(), "d")
	apiserver := start(t, "kubeloop apiserver", "apiserver", "--data-dir", dataDir, "--listen", freeAddr(t))
	apiserver.waitReady(t)
	kubeconfig := filepath.Join(dataDir, "kubeconfig")

	// No --kubeconfig: each component finds its own in the data dir and
	// authenticates as itself; the replicaset controller as its
	// ServiceAccount.
	// The serviceaccount controller makes default/default, without which
	// ServiceAccount admission (on by default) refuses the pods.
	cm := start(t, "kubeloop controller-manager", "controller-manager", "--data-dir", dataDir,
		"--use-service-account-credentials", "--controllers", "replicaset,serviceaccount", "--metrics-listen", "")
	sched := start(t, "kubeloop scheduler", "scheduler", "--data-dir", dataDir)
	node := start(t, "kubeloop kubelet", "kubelet", "--data-dir", dataDir, "--node-name", "solo")

	cl := kubeloopClient(t, kubeconfig)
	ctx := context.Background()
	replicas := int32(2)
	_, err := client.For[*api.ReplicaSet](cl).Namespace("default").Create(ctx, &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: "web"},
		Spec: api.ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "web", Image: "nginx"}}},
			},
		},
	}, client.CreateOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		l, err := client.For[*api.Pod](cl).Namespace("default").List(ctx, client.ListOptions{LabelSelector: "app=web"})
		if err != nil || len(l.Items) != 2 {
			return false
		}
		for _, p := range l.Items {
			if p.Spec.NodeName != "solo" || p.Status.Phase != api.PodRunning {
				return false
			}
		}
		return true
	}, deadline, tick, "controller manager, scheduler and kubelet, each in its own process, run the ReplicaSet's pods")
	// The apiserver's write log names who wrote what.
	for _, who := range []string{
		`verb=create resource=pods key=default/web-\S+ rv=\d+ code=201 user=system:serviceaccount:kube-system:replicaset-controller`,
		`verb=create/binding resource=pods key=default/web-\S+ rv=\S* code=201 user=system:kube-scheduler`,
		`verb=update/status resource=pods key=default/web-\S+ rv=\d+ code=200 user=system:node:solo`,
		`verb=create resource=nodes key=solo rv=\d+ code=201 user=system:node:solo`,
	} {
		require.Regexp(t, who, apiserver.log())
	}
	require.NotRegexp(t, `user=kubernetes-admin\s`+"|"+`resource=pods key=default/web-\S+ rv=\d+ code=201 user=system:kube-controller-manager`,
		strings.Join(regexp.MustCompile(`msg=write .*resource=pods.*`).FindAllString(apiserver.log(), -1), "\n"),
		"no component wrote pods as the admin or as the controller manager itself")
	requireServiceAccountAdmission(t, cl)

	require.Equal(t, 0, node.terminate(t))
	require.Equal(t, 0, sched.terminate(t))
	require.Equal(t, 0, cm.terminate(t))
	require.Equal(t, 0, apiserver.terminate(t))
}

func TestControllerManagerWithoutKubeconfigFailsClearly(t *testing.T) {
	p := start(t, "kubeloop controller-manager", "controller-manager", "--kubeconfig", filepath.Join(t.TempDir(), "missing"), "--metrics-listen", "")
	select {
	case <-p.done:
		var exitErr *exec.ExitError
		require.ErrorAs(t, p.exitErr, &exitErr)
		require.Equal(t, 1, exitErr.ExitCode())
	case <-time.After(deadline):
		t.Fatal("controller-manager kept running without a kubeconfig")
	}
	require.Contains(t, p.log(), "error: kubeconfig")
}
