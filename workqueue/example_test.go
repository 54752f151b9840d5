package workqueue_test

import (
	"errors"
	"fmt"

	"kubeloop/workqueue"
)

// A controller's worker loop: Get a key, reconcile it, then Forget it on
// success or AddRateLimited it on failure, and always Done.
func ExampleNewTypedRateLimitingQueue() {
	queue := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())

	attempts := map[string]int{}
	sync := func(key string) error {
		attempts[key]++
		if key == "default/flaky" && attempts[key] < 3 {
			return errors.New("conflict")
		}
		fmt.Printf("synced %s after %d attempt(s)\n", key, attempts[key])
		return nil
	}

	queue.Add("default/web")
	queue.Add("default/flaky")
	queue.Add("default/web") // coalesced with the first add

	for done := 0; done < 2; {
		key, shutdown := queue.Get()
		if shutdown {
			break
		}
		if err := sync(key); err != nil {
			queue.AddRateLimited(key) // retry after 5 ms, then 10 ms, ...
		} else {
			queue.Forget(key)
			done++
		}
		queue.Done(key)
	}
	queue.ShutDown()
	// Output:
	// synced default/web after 1 attempt(s)
	// synced default/flaky after 3 attempt(s)
}
