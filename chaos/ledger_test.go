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
)

// ledger is what the writers were told. Each writer owns its keys and
// numbers its writes to one key 1, 2, 3, …, storing the number in the
// ConfigMap's data; a write is "attempted" when sent and "acknowledged"
// when its success came back. After a fault the stored number must lie
// between the last acknowledged and the last attempted one: lower is a lost
// acknowledged write, higher a write nobody made.
type ledger struct {
	mu   sync.Mutex
	keys map[string]*ledgerEntry
	// maxRV is the highest resourceVersion any acknowledgement carried:
	// no later read may be older.
	maxRV uint64
	// bad records acknowledgements whose resourceVersion was no number
	// (the writers run outside the test's goroutine: they cannot fail it).
	bad []string
}

type ledgerEntry struct {
	attempted, acked int
	ackedRV          uint64
}

func newLedger() *ledger { return &ledger{keys: map[string]*ledgerEntry{}} }

func (l *ledger) attempt(key string, n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.keys[key]
	if e == nil {
		e = &ledgerEntry{}
		l.keys[key] = e
	}
	e.attempted = n
}

func (l *ledger) ack(key string, n int, obj api.Object) {
	rv, err := strconv.ParseUint(obj.GetObjectMeta().ResourceVersion, 10, 64)
	l.mu.Lock()
	defer l.mu.Unlock()
	if err != nil {
		l.bad = append(l.bad, fmt.Sprintf("%s: resourceVersion %q", key, obj.GetObjectMeta().ResourceVersion))
	}
	e := l.keys[key]
	e.acked, e.ackedRV = n, rv
	l.maxRV = max(l.maxRV, rv)
}

func (l *ledger) highestRV() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.maxRV
}

func (l *ledger) acknowledged() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, e := range l.keys {
		n += e.acked
	}
	return n
}

func parseRV(t *testing.T, rv string) uint64 {
	t.Helper()
	n, err := strconv.ParseUint(rv, 10, 64)
	require.NoError(t, err, "resourceVersion %q", rv)
	return n
}

const counterKey = "n"

// writer creates and then keeps updating its ConfigMaps cm-<id>-<j> in ns
// until ctx ends, recording every write in l. Errors (the apiserver is
// down, the connection was cut) are expected: the writer reads the object
// again and goes on, as a controller would.
func writer(ctx context.Context, c func() *client.Client, l *ledger, ns string, id, objects int) {
	next := map[string]int{}
	for i := 0; ctx.Err() == nil; i++ {
		name := fmt.Sprintf("cm-%d-%d", id, i%objects)
		key := ns + "/" + name
		next[key]++
		n := next[key]
		cms := client.For[*api.ConfigMap](c()).Namespace(ns)
		reqCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
		cur, err := cms.Get(reqCtx, name, client.GetOptions{})
		switch {
		case api.IsNotFound(err):
			l.attempt(key, n)
			out, err := cms.Create(reqCtx, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: name},
				Data: map[string]string{counterKey: strconv.Itoa(n)}}, client.CreateOptions{})
			if err == nil {
				l.ack(key, n, out)
			}
		case err == nil:
			l.attempt(key, n)
			cur.Data = map[string]string{counterKey: strconv.Itoa(n)}
			out, err := cms.Update(reqCtx, cur, client.UpdateOptions{})
			if err == nil {
				l.ack(key, n, out)
			}
		default:
			// Down or cut off: back off a little, like a client's retry.
			select {
			case <-ctx.Done():
			case <-time.After(20 * time.Millisecond):
			}
		}
		cancel()
	}
}

// checkLedger is the first half of the common check: every acknowledged
// write is there, and nothing newer than what was attempted.
func checkLedger(t *testing.T, c *client.Client, l *ledger, ns string) {
	t.Helper()
	list, err := client.For[*api.ConfigMap](c).Namespace(ns).List(testCtx(t, time.Minute), client.ListOptions{})
	require.NoError(t, err)
	require.GreaterOrEqual(t, parseRV(t, list.ResourceVersion), l.highestRV(), "a LIST older than an acknowledged write: resourceVersion went back")
	stored := map[string]*api.ConfigMap{}
	for _, cm := range list.Items {
		stored[ns+"/"+cm.Name] = cm
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	require.Empty(t, l.bad)
	require.NotEmpty(t, l.keys)
	for key, e := range l.keys {
		cm, ok := stored[key]
		if e.acked == 0 {
			// Never acknowledged: it may exist (the create went through
			// before the fault) or not.
			if ok {
				n, _ := strconv.Atoi(cm.Data[counterKey])
				require.LessOrEqual(t, n, e.attempted, "%s holds a write nobody made", key)
			}
			continue
		}
		require.True(t, ok, "%s was acknowledged (write %d) and is gone", key, e.acked)
		n, err := strconv.Atoi(cm.Data[counterKey])
		require.NoError(t, err, "%s: data %v", key, cm.Data)
		require.GreaterOrEqual(t, n, e.acked, "%s lost acknowledged write %d (holds %d)", key, e.acked, n)
		require.LessOrEqual(t, n, e.attempted, "%s holds write %d, but only %d were attempted", key, n, e.attempted)
		if n == e.acked {
			require.Equal(t, e.ackedRV, parseRV(t, cm.ResourceVersion), "%s: same content, another resourceVersion", key)
		}
	}
}
