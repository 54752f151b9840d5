package deltafifo

// Test-only views of what is queued (not what the consumer holds): client-go
// v0.37.2 dropped List, ListKeys, Get and GetByKey from its DeltaFIFO, and
// nothing but these tests reads them. Returned Deltas are copies, which
// later appends cannot change.

// List returns the newest object of every queued key, in queue order.
func (f *DeltaFIFO) List() []any {
	f.lock.Lock()
	defer f.lock.Unlock()
	list := make([]any, 0, len(f.items))
	for _, key := range f.queue.keys() {
		list = append(list, f.items[key].Newest().Object)
	}
	return list
}

// ListKeys returns the queued keys in the order Pop will return them.
func (f *DeltaFIFO) ListKeys() []string {
	f.lock.Lock()
	defer f.lock.Unlock()
	return append([]string(nil), f.queue.keys()...)
}

// Get returns a copy of the Deltas queued for obj's key.
func (f *DeltaFIFO) Get(obj any) (item any, exists bool, err error) {
	key, err := f.KeyOf(obj)
	if err != nil {
		return nil, false, err
	}
	return f.GetByKey(key)
}

// GetByKey returns a copy of the Deltas queued for key.
func (f *DeltaFIFO) GetByKey(key string) (item any, exists bool, err error) {
	f.lock.Lock()
	defer f.lock.Unlock()
	d, ok := f.items[key]
	if !ok {
		return nil, false, nil
	}
	return append(Deltas(nil), d...), true, nil
}

// LastSyncResourceVersion is the resourceVersion of the latest Replace
// (client-go's DeltaFIFO drops it; its reflector remembers it).
func (f *DeltaFIFO) LastSyncResourceVersion() string {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.lastSyncResourceVersion
}

// IsClosed reports whether Close was called.
func (f *DeltaFIFO) IsClosed() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.closed
}
