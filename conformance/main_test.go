package conformance

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"kubeloop/cluster"
	"kubeloop/cluster/full"
	"kubeloop/store"
	"kubeloop/store/storetest"
)

// One standard kubeloop cluster (apiserver, controller manager, one
// simulated node) serves the kubectl and client-go tests; each test works in
// its own namespace. The informer tests that restart the apiserver start
// their own (informer_test.go).
var (
	etcd  *store.Embedded
	kl    *cluster.Cluster
	nsSeq atomic.Int64
)

func TestMain(m *testing.M) {
	// The components log through the default logger; the tests assert on
	// what clients see instead.
	slog.SetDefault(slog.New(slog.DiscardHandler))
	storetest.Main(m, func(e *store.Embedded) {
		etcd = e
		c, err := full.Start(context.Background(), cluster.Options{
			EtcdEndpoints: e.Endpoints(),
			Logger:        slog.New(slog.DiscardHandler),
		}, full.Options{Nodes: 1,
			// Every default controller but the labeler: the kubectl tests
			// assert the exact labels kubectl prints for their ConfigMaps.
			// The labeler on a default cluster is tested with the real
			// kubectl in cmd/kubeloop (TestTutorialLabelerStepsWorkAsWritten).
			Controllers: []string{"*", "-labeler"}})
		if err != nil {
			fmt.Fprintln(os.Stderr, "conformance: start cluster:", err)
			os.Exit(1)
		}
		kl = c
	})
}

// restConfig is how client-go clients talk to a test's own plain-HTTP
// apiserver (ownserver_test.go): with client-go's defaults, so typed
// clients send and ask for protobuf as they do against any cluster. Only
// client-side rate limiting is off (QPS -1), as controllers and tests
// commonly configure it.
func restConfig(host string) *rest.Config {
	return &rest.Config{Host: host, QPS: -1}
}

// adminConfig is how client-go talks to the suite's cluster: read from its
// kubeconfig by clientcmd, exactly as a program run with $KUBECONFIG
// would, so HTTPS, the cluster's CA and the admin's client certificate are
// client-go's own handling.
func adminConfig(t testing.TB) *rest.Config {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", kl.KubeconfigPath)
	require.NoError(t, err)
	cfg.QPS = -1
	return cfg
}

func clientset(t testing.TB) *kubernetes.Clientset {
	t.Helper()
	cs, err := kubernetes.NewForConfig(adminConfig(t))
	require.NoError(t, err)
	return cs
}

// newNamespace creates a namespace for one test and deletes it afterwards.
func newNamespace(t testing.TB) string {
	t.Helper()
	name := fmt.Sprintf("c%d-%s", nsSeq.Add(1), strings.ToLower(t.Name()))
	name = strings.NewReplacer("/", "-", "_", "-", ".", "-").Replace(name)
	if len(name) > 50 {
		name = name[:50]
	}
	name = strings.TrimRight(name, "-")
	cs := clientset(t)
	_, err := cs.CoreV1().Namespaces().Create(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	require.NoError(t, err)
	t.Cleanup(func() {
		_ = cs.CoreV1().Namespaces().Delete(context.Background(), name, metav1.DeleteOptions{})
	})
	// Pods are admitted once the namespace's default ServiceAccount exists.
	require.NoError(t, kl.WaitForDefaultServiceAccount(context.Background(), name))
	return name
}
