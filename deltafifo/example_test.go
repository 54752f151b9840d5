package deltafifo_test

import (
	"fmt"

	"kubeloop/api"
	"kubeloop/deltafifo"
)

func configMap(name, rv string) *api.ConfigMap {
	return &api.ConfigMap{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name, ResourceVersion: rv}}
}

// A reflector lists two ConfigMaps, then watches an update and a delete.
// The consumer pops each key once and sees everything that happened to it.
func ExampleDeltaFIFO() {
	fifo := deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{EmitDeltaTypeReplaced: true})

	_ = fifo.Replace([]any{configMap("a", "1"), configMap("b", "1")}, "1")
	_ = fifo.Update(configMap("a", "2"))
	_ = fifo.Delete(configMap("b", "3"))
	fifo.Close()

	for {
		_, err := fifo.Pop(func(obj any, isInInitialList bool) error {
			for _, d := range obj.(deltafifo.Deltas) {
				cm := d.Object.(*api.ConfigMap)
				fmt.Printf("%s %s rv=%s initial=%v\n", d.Type, cm.Name, cm.ResourceVersion, isInInitialList)
			}
			return nil
		})
		if err != nil {
			fmt.Println(err)
			break
		}
	}
	fmt.Println("synced:", fifo.HasSynced())
	// Output:
	// Replaced a rv=1 initial=true
	// Updated a rv=2 initial=true
	// Replaced b rv=1 initial=true
	// Deleted b rv=3 initial=true
	// DeltaFIFO: manipulating with closed queue
	// synced: true
}
