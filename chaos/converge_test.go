package chaos

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/informer"
	"kubeloop/informers"
)

// watchedInformer is an informer of one resource in one namespace,
// started before the fault and kept through it, with a handler that
// checks resourceVersions never go back: an update's new object is never
// older than the old one, and no object reappears older than it was.
type watchedInformer struct {
	inf    informer.SharedIndexInformer
	cancel context.CancelFunc

	mu         sync.Mutex
	lastRV     map[string]uint64
	violations []string
}

func startInformer(t *testing.T, c *client.Client, info *api.ResourceInfo, ns string) *watchedInformer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	f := informers.NewClientInformerFactory(c, 0, nil)
	w := &watchedInformer{inf: f.InformerFor(info), cancel: cancel, lastRV: map[string]uint64{}}
	_, err := w.inf.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { w.see(obj) },
		UpdateFunc: func(_, obj any) { w.see(obj) },
	})
	require.NoError(t, err)
	f.Start(ctx)
	t.Cleanup(func() { cancel(); f.Shutdown() })
	syncCtx, done := context.WithTimeout(ctx, time.Minute)
	defer done()
	require.True(t, informer.WaitForCacheSync(syncCtx, w.inf.HasSynced), "informer did not sync")
	_ = ns
	return w
}

func (w *watchedInformer) see(obj any) {
	o, ok := obj.(api.Object)
	if !ok {
		return
	}
	m := o.GetObjectMeta()
	key := m.Namespace + "/" + m.Name + "/" + string(m.UID)
	rv, err := strconv.ParseUint(m.ResourceVersion, 10, 64)
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case err != nil:
		w.violations = append(w.violations, fmt.Sprintf("%s: resourceVersion %q", key, m.ResourceVersion))
	case rv < w.lastRV[key]:
		w.violations = append(w.violations, fmt.Sprintf("%s went back from %d to %d", key, w.lastRV[key], rv))
	default:
		w.lastRV[key] = rv
	}
}

// cacheState is an informer cache or a LIST as key → resourceVersion.
func cacheState(objs []api.Object) map[string]string {
	out := map[string]string{}
	for _, o := range objs {
		m := o.GetObjectMeta()
		out[m.Namespace+"/"+m.Name] = m.ResourceVersion
	}
	return out
}

// requireConverged is the second half of the common check: the informer's
// cache ends equal to a fresh LIST (the same objects at the same
// resourceVersions), and it never saw a resourceVersion go back.
func requireConverged(t *testing.T, c *client.Client, info *api.ResourceInfo, ns string, w *watchedInformer) {
	t.Helper()
	var want, got map[string]string
	ok := waitUntil(2*time.Minute, func() bool {
		l, err := c.Dynamic(info).Namespace(ns).List(testCtx(t, 30*time.Second), client.ListOptions{})
		if err != nil {
			return false
		}
		want = cacheState(l.GetItems())
		var cached []api.Object
		for _, o := range w.inf.GetIndexer().List() {
			if obj, ok := o.(api.Object); ok && (ns == "" || obj.GetObjectMeta().Namespace == ns) {
				cached = append(cached, obj)
			}
		}
		got = cacheState(cached)
		return fmt.Sprint(want) == fmt.Sprint(got)
	})
	require.True(t, ok, "informer cache never equalled a fresh LIST:\nLIST  %v\ncache %v", want, got)
	w.mu.Lock()
	defer w.mu.Unlock()
	require.Empty(t, w.violations)
}

// waitUntil polls cond every 100 ms until it holds or d has passed.
func waitUntil(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(100 * time.Millisecond)
	}
}
