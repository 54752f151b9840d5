package main

import (
	"log/slog"
	"path/filepath"

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
			ctx := cmd.Context()
			dir, err := filepath.Abs(dataDir)
			if err != nil {
				return err
			}
			var etcd *store.Embedded
			cfg := apiserver.Config{}
			if len(etcdEndpoints) > 0 {
				cli, err := store.NewClient(etcdEndpoints)
				if err != nil {
					return err
				}
				defer cli.Close()
				cfg.Etcd = cli
			} else {
				etcd, err = store.StartEmbedded(store.EmbeddedConfig{DataDir: filepath.Join(dir, "etcd")})
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
			kubeconfig := filepath.Join(dir, "kubeconfig")
			if err := client.WriteKubeconfig(kubeconfig, &client.Config{Host: "http://" + listen}); err != nil {
				return err
			}
			slog.Info("kubeloop is ready", "listen", listen, "kubeconfig", kubeconfig)
			return srv.Run(ctx, listen)
		},
	}
	cmd.Flags().StringVar(&dataDir, "data-dir", ".kubeloop", "where etcd's data and the kubeconfig live")
	cmd.Flags().StringVar(&listen, "listen", apiserver.DefaultListenAddr, "the address to serve on")
	cmd.Flags().StringSliceVar(&etcdEndpoints, "etcd-endpoints", nil, "an external etcd cluster; empty runs an embedded etcd")
	return cmd
}
