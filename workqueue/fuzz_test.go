package workqueue_test

import (
	"slices"
	"testing"

	"kubeloop/workqueue"
)

// queueModel is the obvious, slow reference the fuzz target compares against.
type queueModel struct {
	queue        []byte
	dirty        map[byte]bool
	processing   map[byte]bool
	shuttingDown bool
}

func (m *queueModel) add(x byte) {
	if m.shuttingDown || m.dirty[x] {
		return
	}
	m.dirty[x] = true
	if !m.processing[x] {
		m.queue = append(m.queue, x)
	}
}

func (m *queueModel) done(x byte) {
	if !m.processing[x] {
		return
	}
	delete(m.processing, x)
	if m.dirty[x] {
		m.queue = append(m.queue, x)
	}
}

// FuzzQueueOperations drives Add/Get/Done/ShutDown from the fuzz input on
// one goroutine and checks the queue against queueModel after every step.
// Each input byte is one operation: the low two bits pick it, the rest pick
// one of eight items. Get is only issued when it cannot block.
func FuzzQueueOperations(f *testing.F) {
	f.Add([]byte{0, 4, 0, 1, 1, 2, 0, 3, 1, 2})
	f.Add([]byte{0, 1, 0, 2, 0, 1, 6, 2, 1})                     // add while processing, then done
	f.Add([]byte{0, 4, 8, 12, 1, 1, 3, 1, 1, 1, 1})              // shutdown with items queued
	f.Add([]byte{0, 1, 0, 0, 0, 2, 1, 2, 1, 2, 3, 0, 1})         // repeated requeue
	f.Add([]byte{28, 24, 20, 16, 12, 8, 4, 0, 1, 5, 9, 1, 2, 6}) // many items
	f.Fuzz(func(t *testing.T, ops []byte) {
		q := workqueue.NewTyped[byte]()
		defer q.ShutDown()
		m := &queueModel{dirty: map[byte]bool{}, processing: map[byte]bool{}}
		var handedOut []byte // items a caller holds (processing)

		for step, op := range ops {
			item := (op >> 2) % 8
			switch op & 3 {
			case 0:
				q.Add(item)
				m.add(item)
			case 1:
				if len(m.queue) == 0 && !m.shuttingDown {
					continue // Get would block
				}
				got, shutdown := q.Get()
				if len(m.queue) == 0 {
					if !shutdown {
						t.Fatalf("step %d: Get on a drained, shut down queue returned %d", step, got)
					}
					continue
				}
				want := m.queue[0]
				m.queue = m.queue[1:]
				if shutdown || got != want {
					t.Fatalf("step %d: Get = (%d, %v), want (%d, false)", step, got, shutdown, want)
				}
				if m.processing[got] {
					t.Fatalf("step %d: %d handed out while already processing", step, got)
				}
				m.processing[got] = true
				delete(m.dirty, got)
				handedOut = append(handedOut, got)
			case 2:
				// Done an item we hold if any, else an arbitrary one (a no-op).
				if i := int(item) % (len(handedOut) + 1); i < len(handedOut) {
					item = handedOut[i]
					handedOut = slices.Delete(handedOut, i, i+1)
				}
				q.Done(item)
				m.done(item)
			case 3:
				q.ShutDown()
				m.shuttingDown = true
			}

			if q.Len() != len(m.queue) {
				t.Fatalf("step %d: Len = %d, model %d", step, q.Len(), len(m.queue))
			}
			seen := map[byte]bool{}
			for _, x := range m.queue {
				if seen[x] || m.processing[x] {
					t.Fatalf("step %d: model broke its invariant on %d", step, x)
				}
				seen[x] = true
			}
		}
	})
}
