package store_test

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	clientv3 "go.etcd.io/etcd/client/v3"

	"kubeloop/api"
	"kubeloop/store"
	"kubeloop/store/storetest"
)

// etcd is shared by every test of the package; each test works in its own
// namespace so tests never see each other's keys.
var etcd *store.Embedded

func TestMain(m *testing.M) {
	storetest.Main(m, func(e *store.Embedded) { etcd = e })
}

func configMapInfo(t testing.TB) *api.ResourceInfo {
	info, ok := api.Builtin().ForResource("", "configmaps")
	require.True(t, ok)
	return info
}

// fixture is one test's store and namespace.
type fixture struct {
	t     testing.TB
	ctx   context.Context
	store *store.Store
	info  *api.ResourceInfo
	ns    string
}

func newFixture(t testing.TB) *fixture {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	info := configMapInfo(t)
	ns := strings.ToLower(strings.NewReplacer("/", "-", "_", "-").Replace(t.Name()))
	f := &fixture{t: t, ctx: ctx, store: store.New(etcd.Client(), info), info: info, ns: ns}
	// The namespace comes from the test's name, so a repeated run (-count=N)
	// shares etcd with the previous one: start from an empty namespace.
	_, err := etcd.Client().Delete(ctx, f.prefix(), clientv3.WithPrefix())
	require.NoError(t, err)
	return f
}

func (f *fixture) key(name string) string { return f.info.Key(f.ns, name) }
func (f *fixture) prefix() string         { return f.info.KeyPrefix() + f.ns + "/" }
func (f *fixture) client() *clientv3.Client {
	return etcd.Client()
}

func (f *fixture) configMap(name string, labels map[string]string, data map[string]string) *api.ConfigMap {
	return &api.ConfigMap{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: f.ns, UID: "uid-" + name, Labels: labels},
		Data:       data,
	}
}

func (f *fixture) create(name string, labels map[string]string) *api.ConfigMap {
	f.t.Helper()
	out, err := f.store.Create(f.ctx, f.key(name), f.configMap(name, labels, map[string]string{"k": "v"}))
	require.NoError(f.t, err)
	return out.(*api.ConfigMap)
}

func (f *fixture) currentRV() int64 {
	f.t.Helper()
	rv, err := f.store.CurrentResourceVersion(f.ctx)
	require.NoError(f.t, err)
	return int64(rv)
}

func rvOf(t testing.TB, obj api.Object) int64 {
	t.Helper()
	var rv int64
	_, err := fmt.Sscan(obj.GetObjectMeta().ResourceVersion, &rv)
	require.NoError(t, err)
	return rv
}

func names(objs []api.Object) []string {
	out := make([]string, len(objs))
	for i, o := range objs {
		out[i] = o.GetObjectMeta().Name
	}
	return out
}

var fullCounter = flag.Bool("counter.full", false, "run the concurrent counter test at full size (64 writers x 50 increments)")
