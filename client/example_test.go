package client_test

import (
	"context"
	"fmt"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/reflector"
)

// The reflector reads through an interface it defines itself; the client's
// dynamic resources and ListWatch satisfy it without an adapter.
var (
	_ reflector.ListerWatcher = (*client.ListWatch)(nil)
	_ reflector.ListerWatcher = (*client.DynamicResource)(nil)
)

// A controller builds one Client from the kubeconfig and derives typed
// resources from it.
func Example() {
	cfg, err := client.ConfigFromKubeconfig("", "")
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := client.NewForConfig(cfg.ForComponent("replicaset-controller"))
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	pods := client.For[*api.Pod](c).Namespace("default")
	list, err := pods.List(ctx, client.ListOptions{LabelSelector: "app=web"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range list.Items {
		fmt.Println(p.Name, p.Status.Phase)
	}
	// A read-modify-write that survives concurrent writers.
	err = client.RetryOnConflict(client.DefaultRetry, func() error {
		rs, err := client.For[*api.ReplicaSet](c).Namespace("default").Get(ctx, "web", client.GetOptions{})
		if err != nil {
			return err
		}
		n := int32(5)
		rs.Spec.Replicas = &n
		_, err = client.For[*api.ReplicaSet](c).Namespace("default").Update(ctx, rs, client.UpdateOptions{})
		return err
	})
	if api.IsNotFound(err) {
		fmt.Println("no such replicaset")
	}
}
