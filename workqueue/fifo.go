package workqueue

// Skip on a first reading: the queue's FIFO is a ring buffer, a speed-up
// over client-go's plain slice (append to push, queue[1:] to pop). Reading
// queue.go, think of push as append and pop as taking queue[0]. Reslicing
// reallocates as the slice creeps forward; a ring reuses its array, so a
// queue at steady state allocates nothing: 0 B/op instead of 16 on
// BenchmarkQueueSerialAddGetDone (conformance/workqueue_bench_test.go,
// measured by swapping this file for the plain slice; its times on the
// shared VM were within noise of each other).

// fifo is a growable ring buffer.
type fifo[T any] struct {
	buf  []T // len(buf) is zero or a power of two
	head int // index of the oldest item
	n    int // number of items
}

func (f *fifo[T]) len() int { return f.n }

func (f *fifo[T]) push(item T) {
	if f.n == len(f.buf) {
		f.grow()
	}
	f.buf[(f.head+f.n)&(len(f.buf)-1)] = item
	f.n++
}

// pop removes the oldest item. The caller checks len() first.
func (f *fifo[T]) pop() T {
	var zero T
	item := f.buf[f.head]
	f.buf[f.head] = zero // let the garbage collector have what T points to
	f.head = (f.head + 1) & (len(f.buf) - 1)
	f.n--
	return item
}

func (f *fifo[T]) grow() {
	size := max(16, 2*len(f.buf))
	buf := make([]T, size)
	// Unroll the ring so the oldest item lands at index 0.
	k := copy(buf, f.buf[f.head:])
	copy(buf[k:], f.buf[:f.head])
	f.buf, f.head = buf, 0
}
