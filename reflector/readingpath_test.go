package reflector_test

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
	"kubeloop/reflector"
)

// Reading path, step 4 (docs/reading-path.md): the reflector lists once,
// then watches from the list's resourceVersion, against a real apiserver.
// The ConfigMap that existed before arrives in Replace (the list); a later
// write arrives as an Update carrying its resourceVersion, which the
// reflector remembers so a broken watch resumes exactly there. Break in
// Reflector.ListAndWatch, then in Reflector.handleWatch.
func TestReadingPathStep4ReflectorListsThenWatches(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := cluster.Start(ctx, cluster.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	require.NoError(t, err)
	defer c.Stop()
	cms := client.For[*api.ConfigMap](c.Client).Namespace("default")
	web, err := cms.Create(ctx, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "web"}, Data: map[string]string{"replicas": "3"}}, client.CreateOptions{})
	require.NoError(t, err)

	info, _ := api.Builtin().ForResource("", "configmaps")
	st := &seen{changed: make(chan struct{}, 100)}
	r := reflector.NewReflector("readingpath", client.NewListWatch(c.Client, info, "default"), st, 0)
	go r.Run(ctx)

	st.waitFor(t, func() bool { return len(st.ops) > 0 })
	assert.Equal(t, "replace [web]", st.at(0), "the list comes first, as one Replace")

	web.Data["replicas"] = "5"
	updated, err := cms.Update(ctx, web, client.UpdateOptions{})
	require.NoError(t, err)
	st.waitFor(t, func() bool { return len(st.ops) > 1 })
	assert.Equal(t, "update web rv="+updated.ResourceVersion, st.at(1), "then the watch delivers the write")
	assert.Eventually(t, func() bool { return r.LastSyncResourceVersion() == updated.ResourceVersion }, 10*time.Second, 10*time.Millisecond,
		"the reflector resumes from the last event's resourceVersion")
}

// seen is the reflector's store: it writes down what it was told.
type seen struct {
	mu      sync.Mutex
	ops     []string
	changed chan struct{}
}

func (s *seen) log(op string) error {
	s.mu.Lock()
	s.ops = append(s.ops, op)
	s.mu.Unlock()
	s.changed <- struct{}{}
	return nil
}
func (s *seen) Add(obj any) error { return s.log("add " + name(obj)) }
func (s *seen) Update(obj any) error {
	return s.log("update " + name(obj) + " rv=" + obj.(api.Object).GetObjectMeta().ResourceVersion)
}
func (s *seen) Delete(obj any) error { return s.log("delete " + name(obj)) }
func (s *seen) Resync() error        { return nil }
func (s *seen) Replace(list []any, _ string) error {
	names := ""
	for i, o := range list {
		if i > 0 {
			names += " "
		}
		names += name(o)
	}
	return s.log("replace [" + names + "]")
}

func (s *seen) at(i int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ops[i]
}

func name(obj any) string { return obj.(api.Object).GetObjectMeta().Name }

func (s *seen) waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		s.mu.Lock()
		ok := cond()
		s.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-s.changed:
		case <-deadline:
			s.mu.Lock()
			defer s.mu.Unlock()
			t.Fatalf("the reflector's store saw only %v", s.ops)
		}
	}
}
