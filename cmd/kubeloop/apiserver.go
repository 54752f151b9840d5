package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"kubeloop/apiserver"
	"kubeloop/client"
	"kubeloop/store"
)

func apiserverCommand() *cobra.Command {
	var (
		dataDir       string
		listen        string
		etcdEndpoints []string
	)
	cmd := &cobra.Command{
		Use:   "apiserver",
		Short: "Run only the apiserver (with an embedded etcd unless --etcd-endpoints is set)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runAPIServer(cmd.Context(), dataDir, listen, etcdEndpoints)
		},
	}
	cmd.Flags().StringVar(&dataDir, "data-dir", ".kubeloop", "where etcd's data and the kubeconfig live")
	cmd.Flags().StringVar(&listen, "listen", apiserver.DefaultListenAddr, "the address to serve on")
	cmd.Flags().StringSliceVar(&etcdEndpoints, "etcd-endpoints", nil, "an external etcd cluster; empty runs an embedded etcd")
	return cmd
}

func runAPIServer(ctx context.Context, dataDir, listen string, etcdEndpoints []string) error {
	dir, err := filepath.Abs(dataDir)
	if err != nil {
		return err
	}
	cfg := apiserver.Config{}
	if len(etcdEndpoints) > 0 {
		cli, err := store.NewClient(etcdEndpoints)
		if err != nil {
			return err
		}
		defer cli.Close()
		cfg.Etcd = cli
	} else {
		etcd, err := store.StartEmbedded(store.EmbeddedConfig{DataDir: filepath.Join(dir, "etcd")})
		if err != nil {
			return err
		}
		defer etcd.Close()
		cfg.Etcd = etcd.Client()
	}
	srv, err := apiserver.New(cfg)
	if err != nil {
		return err
	}
	// Listen before announcing anything, so the kubeconfig never points at
	// a port that is not ours.
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return fmt.Errorf("apiserver: listen %s: %w", listen, err)
	}
	url := "http://" + ln.Addr().String()
	kubeconfig := filepath.Join(dir, "kubeconfig")
	if err := client.WriteKubeconfig(kubeconfig, &client.Config{Host: url}); err != nil {
		_ = ln.Close()
		return err
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()

	// Ready means what it means to a user: /readyz answers 200 over HTTP.
	cl, err := client.NewForConfig(&client.Config{Host: url})
	if err != nil {
		return err
	}
	if err := waitReadyz(ctx, cl, served); err != nil {
		if ctx.Err() != nil {
			return <-served
		}
		return err
	}
	slog.Info("kubeloop is ready", "url", url, "kubeconfig", kubeconfig)
	return <-served
}

// waitReadyz polls /readyz until it answers 200, the server fails, or ctx
// ends. A failed server's error is put back for the caller.
func waitReadyz(ctx context.Context, cl *client.Client, served chan error) error {
	for {
		if _, err := cl.DoRaw(ctx, "GET", "/readyz", nil, nil); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-served:
			served <- err
			return fmt.Errorf("apiserver stopped before it was ready: %w", err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}
