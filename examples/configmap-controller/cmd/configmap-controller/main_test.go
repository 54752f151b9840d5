package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
	"kubeloop/cluster/clustertest"
	"kubeloop/examples/configmap-controller/clientgo"
)

const waitFor = 20 * time.Second

// Both controllers, the tutorial's on client-go and the same on kubeloop's
// packages, run as main runs them (from the cluster's kubeconfig) against
// one kubeloop apiserver, each in a namespace of its own, and do what the
// tutorial shows: label a new ConfigMap, put the label back when it is
// removed, and leave other namespaces alone.
func TestTheTutorialControllerRunsOnKubeloop(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	if os.Getenv("V") != "" {
		logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	slog.SetDefault(logger)
	c, err := cluster.Start(ctx, cluster.Options{Logger: logger})
	require.NoError(t, err)
	defer c.Stop()
	untouched := clustertest.Namespace(t, c)

	for impl, run := range map[string]func(context.Context, string, string, time.Duration, int) error{
		"client-go": runClientGo,
		"kubeloop":  runNative,
	} {
		t.Run(impl, func(t *testing.T) {
			ns := clustertest.Namespace(t, c)
			cms := client.For[*api.ConfigMap](c.Client).Namespace(ns)
			// One ConfigMap exists before the controller starts: the
			// informer's initial list brings it.
			_, err := cms.Create(ctx, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "before"}}, client.CreateOptions{})
			require.NoError(t, err)
			clustertest.Go(t, func(ctx context.Context) {
				if err := run(ctx, c.KubeconfigPath, ns, 30*time.Second, 2); err != nil {
					t.Errorf("%s controller: %v", impl, err)
				}
			})
			waitLabelled(t, cms, "before")

			// kubectl create configmap hello --from-literal=greeting=world
			_, err = cms.Create(ctx, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "hello"},
				Data: map[string]string{"greeting": "world"}}, client.CreateOptions{})
			require.NoError(t, err)
			hello := waitLabelled(t, cms, "hello")
			assert.Equal(t, map[string]string{"greeting": "world"}, hello.Data, "only the label changes")

			// kubectl label configmap hello managed-by-
			delete(hello.Labels, clientgo.LabelKey)
			removed, err := cms.Update(ctx, hello, client.UpdateOptions{})
			require.NoError(t, err)
			back := waitLabelled(t, cms, "hello")
			assert.NotEqual(t, removed.ResourceVersion, back.ResourceVersion, "the label came back in a new write")

			other := client.For[*api.ConfigMap](c.Client).Namespace(untouched)
			_, err = other.Create(ctx, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: impl}}, client.CreateOptions{})
			require.NoError(t, err)
			// Prove a negative only after a write of ours has been seen.
			_, err = cms.Create(ctx, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "after"}}, client.CreateOptions{})
			require.NoError(t, err)
			waitLabelled(t, cms, "after")
			got, err := other.Get(ctx, impl, client.GetOptions{})
			require.NoError(t, err)
			assert.Empty(t, got.Labels, "a controller scoped to %s leaves %s alone", ns, untouched)
		})
	}
}

func waitLabelled(t *testing.T, cms *client.Resource[*api.ConfigMap], name string) *api.ConfigMap {
	t.Helper()
	var cm *api.ConfigMap
	require.Eventually(t, func() bool {
		got, err := cms.Get(context.Background(), name, client.GetOptions{})
		if err != nil {
			return false
		}
		cm = got
		return got.Labels[clientgo.LabelKey] == clientgo.LabelValue
	}, waitFor, 20*time.Millisecond, "configmap %s never got %s=%s", name, clientgo.LabelKey, clientgo.LabelValue)
	return cm
}
