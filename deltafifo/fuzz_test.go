package deltafifo

import (
	"fmt"
	"strconv"
	"testing"
)

// FuzzDeltaFIFOOperations reads the input as a program: each byte pair is an
// operation and a key. A knownIndex plays the consumer so Delete, Replace and
// Resync take their known-objects paths. After every step the queue's
// invariants must hold.
func FuzzDeltaFIFOOperations(f *testing.F) {
	f.Add([]byte{0, 1, 1, 1, 2, 1, 2, 1, 5, 0})
	f.Add([]byte{0, 1, 0, 2, 3, 7, 2, 1, 2, 2, 5, 0, 5, 0, 4, 0, 5, 0})
	f.Add([]byte{3, 0, 5, 0, 2, 3, 3, 1, 2, 1, 4, 0, 5, 0, 5, 0, 5, 0})
	f.Add([]byte{6, 0, 0, 4, 3, 0, 2, 4, 2, 4, 5, 0, 4, 0, 5, 0})

	f.Fuzz(func(t *testing.T, program []byte) {
		known := newKnownIndex()
		q := NewDeltaFIFOWithOptions(DeltaFIFOOptions{
			KnownObjects:          known,
			EmitDeltaTypeReplaced: len(program)%2 == 1,
		})
		for i := 0; i+1 < len(program); i += 2 {
			op, arg := program[i]%7, program[i+1]
			obj := cm("ns", "k"+strconv.Itoa(int(arg%8)), strconv.Itoa(i))
			var err error
			switch op {
			case 0:
				err = q.Add(obj)
			case 1:
				err = q.Update(obj)
			case 2:
				err = q.Delete(obj)
			case 3: // relist of the keys whose bit is set in arg
				var list []any
				for k := range 8 {
					if arg&(1<<k) != 0 {
						list = append(list, cm("ns", "k"+strconv.Itoa(k), strconv.Itoa(i)))
					}
				}
				err = q.Replace(list, strconv.Itoa(i))
			case 4:
				err = q.Resync()
			case 5, 6:
				if len(q.ListKeys()) == 0 {
					continue // Pop would block forever
				}
				var popped Deltas
				_, err = q.Pop(func(obj any, _ bool) error {
					popped = obj.(Deltas)
					return nil
				})
				if err == nil && len(popped) == 0 {
					t.Fatalf("step %d: popped empty Deltas", i)
				}
				known.apply(popped)
			}
			if err != nil {
				t.Fatalf("step %d op %d: %v", i, op, err)
			}
			if msg := checkInvariants(q); msg != "" {
				t.Fatalf("step %d op %d: %s", i, op, msg)
			}
		}
	})
}

func checkInvariants(q *DeltaFIFO) string {
	q.lock.Lock()
	defer q.lock.Unlock()
	order := q.queue.keys()
	if len(order) != len(q.items) {
		return fmt.Sprintf("queue holds %d keys, items %d", len(order), len(q.items))
	}
	inQueue := map[string]bool{}
	for _, key := range order {
		if inQueue[key] {
			return "key queued twice: " + key
		}
		inQueue[key] = true
		d, ok := q.items[key]
		if !ok || len(d) == 0 {
			return "queued key without deltas: " + key
		}
		for j := 1; j < len(d); j++ {
			if d[j].Type == Deleted && d[j-1].Type == Deleted {
				return "two consecutive Deleted for " + key
			}
		}
	}
	return ""
}
