// Command configmap-controller runs the tutorial's controller against the
// cluster a kubeconfig points at: `make run` here, once `make run` at the
// repository's root has a cluster up (see README.md).
package main

import (
	"context"
	"flag"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"

	"kubeloop/client"
	"kubeloop/examples/configmap-controller/clientgo"
	"kubeloop/examples/configmap-controller/native"
)

func main() {
	kubeconfig := flag.String("kubeconfig", defaultKubeconfig(), "kubeconfig of the cluster; empty means in-cluster config")
	namespace := flag.String("namespace", "default", "the namespace whose ConfigMaps are labelled")
	resync := flag.Duration("resync", 30*time.Second, "how often the informer redelivers every ConfigMap")
	workers := flag.Int("workers", 2, "reconciles running at once")
	impl := flag.String("impl", "client-go", `"client-go" (the tutorial's) or "kubeloop" (the same on kubeloop's packages)`)
	klog.InitFlags(nil)
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	switch *impl {
	case "client-go":
		err = runClientGo(ctx, *kubeconfig, *namespace, *resync, *workers)
	case "kubeloop":
		err = runNative(ctx, *kubeconfig, *namespace, *resync, *workers)
	default:
		klog.Exitf("--impl is client-go or kubeloop, not %q", *impl)
	}
	if err != nil {
		klog.Exit(err)
	}
}

// defaultKubeconfig is $KUBECONFIG, else the one `make run` writes.
func defaultKubeconfig() string {
	if kc := os.Getenv("KUBECONFIG"); kc != "" {
		return kc
	}
	return filepath.Join("..", "..", ".kubeloop", "kubeconfig")
}

func runClientGo(ctx context.Context, kubeconfig, namespace string, resync time.Duration, workers int) error {
	// With an empty path, BuildConfigFromFlags falls back to the in-cluster
	// config (the pod's service account).
	config, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}
	clientset, err := kubernetes.NewForConfig(config)
	if err != nil {
		return err
	}
	c, err := clientgo.New(clientset, namespace, resync)
	if err != nil {
		return err
	}
	return c.Run(ctx, workers)
}

func runNative(ctx context.Context, kubeconfig, namespace string, resync time.Duration, workers int) error {
	config, err := client.ConfigFromKubeconfig(kubeconfig, "")
	if err != nil {
		return err
	}
	cl, err := client.NewForConfig(config)
	if err != nil {
		return err
	}
	c, err := native.New(cl, namespace, resync)
	if err != nil {
		return err
	}
	return c.Run(ctx, workers)
}
