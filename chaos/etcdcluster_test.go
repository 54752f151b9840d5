package chaos

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	clientv3 "go.etcd.io/etcd/client/v3"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/store"
)

// An etcd member runs as this test binary started again with
// etcdMemberEnv set: the member's name, and its data dir, client and peer
// addresses and the whole cluster in the variables below. It serves until
// killed.
const (
	etcdMemberEnv  = "CHAOS_ETCD_MEMBER"
	etcdDirEnv     = "CHAOS_ETCD_DIR"
	etcdClientEnv  = "CHAOS_ETCD_CLIENT"
	etcdPeerEnv    = "CHAOS_ETCD_PEER"
	etcdClusterEnv = "CHAOS_ETCD_CLUSTER"
)

func runEtcdMember() {
	e, err := store.StartEmbedded(store.EmbeddedConfig{
		Name:           os.Getenv(etcdMemberEnv),
		DataDir:        os.Getenv(etcdDirEnv),
		ClientURL:      "http://" + os.Getenv(etcdClientEnv),
		PeerURL:        "http://" + os.Getenv(etcdPeerEnv),
		InitialCluster: os.Getenv(etcdClusterEnv),
		StartTimeout:   2 * time.Minute,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "etcd member:", err)
		os.Exit(1)
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, os.Interrupt)
	<-stop
	e.Close()
}

// etcdMember is one member process of a three-member cluster.
type etcdMember struct {
	name, dir, client, peer string
	proc                    *process
}

type etcdCluster struct {
	t       *testing.T
	members []*etcdMember
	initial string
}

func startEtcdCluster(t *testing.T, n int) *etcdCluster {
	c := &etcdCluster{t: t}
	var initial []string
	for i := range n {
		m := &etcdMember{name: fmt.Sprintf("m%d", i), dir: filepath.Join(t.TempDir(), "etcd"), client: freeAddr(t), peer: freeAddr(t)}
		c.members = append(c.members, m)
		initial = append(initial, m.name+"=http://"+m.peer)
	}
	c.initial = strings.Join(initial, ",")
	for _, m := range c.members {
		c.start(m)
	}
	cli := c.client()
	defer cli.Close()
	require.True(t, waitUntil(2*time.Minute, func() bool { return c.leader(cli) != nil }), "the etcd cluster elected no leader")
	return c
}

// start runs m (again: on restart its data dir has the membership).
func (c *etcdCluster) start(m *etcdMember) {
	self, err := os.Executable()
	require.NoError(c.t, err)
	logPath := filepath.Join(c.t.TempDir(), m.name+".log")
	logFile, err := os.Create(logPath)
	require.NoError(c.t, err)
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), etcdMemberEnv+"="+m.name, etcdDirEnv+"="+m.dir, etcdClientEnv+"="+m.client,
		etcdPeerEnv+"="+m.peer, etcdClusterEnv+"="+c.initial)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	require.NoError(c.t, cmd.Start())
	p := &process{t: c.t, name: "etcd-" + m.name, cmd: cmd, log: logPath, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); _ = logFile.Close(); close(p.done) }()
	c.t.Cleanup(p.kill)
	m.proc = p
}

func (c *etcdCluster) endpoints() []string {
	var out []string
	for _, m := range c.members {
		out = append(out, m.client)
	}
	return out
}

func (c *etcdCluster) client() *clientv3.Client {
	cli, err := store.NewClient(c.endpoints())
	require.NoError(c.t, err)
	return cli
}

// leader is the member that says it leads, or nil.
func (c *etcdCluster) leader(cli *clientv3.Client) *etcdMember {
	for _, m := range c.members {
		if m.proc.exited() {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		st, err := cli.Status(ctx, m.client)
		cancel()
		if err == nil && st.Leader != 0 && st.Leader == st.Header.MemberId {
			return m
		}
	}
	return nil
}

// An apiserver on a three-member etcd cluster keeps serving writes while
// first a follower and then the leader are killed with SIGKILL (each comes
// back afterwards), and nothing acknowledged is lost.
func TestAPIServerOnThreeEtcdMembersSurvivesLosingFollowerThenLeader(t *testing.T) {
	etcd := startEtcdCluster(t, 3)
	dir := t.TempDir()
	apiserver := startProcess(t, "apiserver", "apiserver", "--data-dir", dir, "--listen", "127.0.0.1:0",
		"--etcd-endpoints", strings.Join(etcd.endpoints(), ","))
	c := apiserver.waitReady(dir)
	ctx := testCtx(t, 10*time.Minute)

	ns := "chaos-etcd"
	_, err := client.For[*api.Namespace](c).Create(ctx, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: ns}}, client.CreateOptions{})
	require.NoError(t, err)
	cmInfo, _ := api.ForType[*api.ConfigMap](api.Builtin())
	inf := startInformer(t, c, cmInfo, ns)

	l := newLedger()
	writeCtx, stopWriters := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for id := range size(4, 16) {
		wg.Go(func() { writer(writeCtx, func() *client.Client { return c }, l, ns, id, 5) })
	}
	cli := etcd.client()
	defer cli.Close()
	progress := func(what string) {
		t.Helper()
		acked := l.acknowledged()
		require.True(t, waitUntil(2*time.Minute, func() bool { return l.acknowledged() >= acked+20 }),
			"no writes acknowledged %s", what)
	}
	progress("before any fault")

	leader := etcd.leader(cli)
	require.NotNil(t, leader)
	var follower *etcdMember
	for _, m := range etcd.members {
		if m != leader {
			follower = m
			break
		}
	}
	follower.proc.kill()
	progress("with a follower down")
	etcd.start(follower)

	leader.proc.kill()
	progress("after the leader was killed")
	etcd.start(leader)
	require.True(t, waitUntil(2*time.Minute, func() bool { return etcd.leader(cli) != nil }), "no leader after the old one returned")
	progress("with every member back")
	stopWriters()
	wg.Wait()

	checkLedger(t, c, l, ns)
	requireConverged(t, c, cmInfo, ns, inf)
}
