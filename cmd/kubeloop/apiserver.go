package main

import (
	"context"
	"log/slog"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"kubeloop/apiserver"
	"kubeloop/cluster"
)

// servingFlags are the apiserver's flags that `kubeloop up` and `kubeloop
// apiserver` share: where to listen, which etcd, and how clients
// authenticate.
type servingFlags struct {
	dataDir       string
	listen        string
	etcdEndpoints []string
	insecureHTTP  bool
	tokenAuthFile string
	// authorizationModes and admissionPlugins are kube-apiserver's
	// --authorization-mode and --enable-admission-plugins.
	authorizationModes []string
	admissionPlugins   []string
}

func addServingFlags(f *pflag.FlagSet, s *servingFlags) {
	f.StringVar(&s.dataDir, "data-dir", ".kubeloop", "where etcd's data, the certificates (pki/) and the kubeconfig live; restarting with the same dir keeps every object and every certificate")
	f.StringVar(&s.listen, "listen", apiserver.DefaultListenAddr, "the apiserver's address")
	f.StringSliceVar(&s.etcdEndpoints, "etcd-endpoints", nil, "an external etcd cluster (comma-separated URLs); empty runs an embedded etcd")
	f.BoolVar(&s.insecureHTTP, "insecure-http", false, "serve plain HTTP instead of HTTPS (loopback addresses only; the admin gets a bearer token)")
	f.StringVar(&s.tokenAuthFile, "token-auth-file", "", "a static token file: CSV lines token,user,uid,\"group1,group2\" (as kube-apiserver's)")
	f.StringSliceVar(&s.authorizationModes, "authorization-mode", cluster.DefaultAuthorizationModes,
		`authorizers in order: Node,RBAC (kubeadm's; the bootstrap policy is reconciled at start), or AlwaysAllow (anyone may do anything)`)
	f.StringSliceVar(&s.admissionPlugins, "enable-admission-plugins", cluster.DefaultAdmissionPlugins,
		`optional admission plugins: ServiceAccount (a pod runs as its namespace's "default" account unless it names another, is refused until that account exists, and gets its token mounted), NodeRestriction (kubelets write only their own objects); "" for none`)
}

// options turns the flags into cluster options (an absolute data dir, so
// the kubeconfig's paths mean the same from anywhere).
func (s servingFlags) options() (cluster.Options, error) {
	dir, err := filepath.Abs(s.dataDir)
	if err != nil {
		return cluster.Options{}, err
	}
	plugins := s.admissionPlugins
	if plugins == nil {
		// --enable-admission-plugins="": none, not the default.
		plugins = []string{}
	}
	return cluster.Options{
		DataDir: dir, Listen: s.listen, EtcdEndpoints: s.etcdEndpoints,
		InsecureHTTP: s.insecureHTTP, TokenAuthFile: s.tokenAuthFile,
		AuthorizationModes: s.authorizationModes, AdmissionPlugins: plugins,
	}, nil
}

func apiserverCommand() *cobra.Command {
	var f servingFlags
	cmd := &cobra.Command{
		Use:   "apiserver",
		Short: "Run only the apiserver (with an embedded etcd unless --etcd-endpoints is set)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runAPIServer(cmd.Context(), f)
		},
	}
	addServingFlags(cmd.Flags(), &f)
	return cmd
}

// runAPIServer is an API-only cluster: cluster.Start with no components,
// so the certificates, the kubeconfig and readiness are the same as for
// `kubeloop up`.
func runAPIServer(ctx context.Context, f servingFlags) error {
	opts, err := f.options()
	if err != nil {
		return err
	}
	c, err := cluster.Start(ctx, opts)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	defer c.Stop()
	slog.Info("kubeloop is ready", "url", c.URL, "kubeconfig", c.KubeconfigPath)
	<-ctx.Done()
	c.Stop()
	slog.Info("stopped")
	return nil
}
