package cluster

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
)

func TestStartServesTheAPIAndStopCleansUp(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := Start(ctx, Options{})
	require.NoError(t, err)
	defer c.Stop()

	nss, err := client.For[*api.Namespace](c.Client).List(ctx, client.ListOptions{})
	require.NoError(t, err)
	var names []string
	for _, ns := range nss.Items {
		names = append(names, ns.Name)
	}
	require.Subset(t, names, []string{"default", "kube-system", "kube-node-lease"})

	cfg, err := client.ConfigFromKubeconfig(c.KubeconfigPath, "")
	require.NoError(t, err)
	require.Equal(t, c.URL, cfg.Host, "the kubeconfig points at this cluster")
}
