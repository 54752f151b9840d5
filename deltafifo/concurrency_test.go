package deltafifo

import (
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Many producers each own some keys and write versions 0..n-1 to each;
// several consumers pop until the queue is closed and drained. Every key
// must show all its versions, in order, and never be in two consumers'
// hands at once.
func TestConcurrentProducersAndConsumersKeepPerKeyOrder(t *testing.T) {
	const producers, keysPerProducer, versions, consumers = 8, 16, 40, 4
	f := newFIFO(nil)

	var producing sync.WaitGroup
	for p := range producers {
		producing.Go(func() {
			for v := range versions {
				for k := range keysPerProducer {
					obj := cm("ns", fmt.Sprintf("p%d-k%d", p, k), strconv.Itoa(v))
					if v == 0 {
						assert.NoError(t, f.Add(obj))
					} else {
						assert.NoError(t, f.Update(obj))
					}
				}
			}
		})
	}

	var (
		mu       sync.Mutex
		inFlight = map[string]bool{}
		seen     = map[string][]int{}
	)
	var consuming sync.WaitGroup
	for range consumers {
		consuming.Go(func() {
			for {
				_, err := f.Pop(func(obj any, _ bool) error {
					d := obj.(Deltas)
					if len(d) == 0 {
						return errors.New("popped empty Deltas")
					}
					key, err := f.KeyOf(d)
					if err != nil {
						return err
					}
					mu.Lock()
					if inFlight[key] {
						mu.Unlock()
						return fmt.Errorf("%s handed to two consumers", key)
					}
					inFlight[key] = true
					for _, delta := range d {
						v, _ := strconv.Atoi(describe(delta.Object))
						seen[key] = append(seen[key], v)
					}
					mu.Unlock()

					mu.Lock()
					delete(inFlight, key)
					mu.Unlock()
					return nil
				})
				if errors.Is(err, ErrFIFOClosed) {
					return
				}
				assert.NoError(t, err)
			}
		})
	}

	producing.Wait()
	f.Close()
	consuming.Wait()

	require.Len(t, seen, producers*keysPerProducer, "no key lost")
	want := make([]int, versions)
	for i := range want {
		want[i] = i
	}
	for key, got := range seen {
		assert.Equal(t, want, got, "versions of %s out of order or lost", key)
	}
	assert.Empty(t, f.ListKeys())
}
