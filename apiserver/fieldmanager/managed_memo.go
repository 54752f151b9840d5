package fieldmanager

// Skip on a first reading: a speed-up. Every tracked write parses the
// stored object's managedFields and writes them all again, though most
// entries (everyone's but the writer's) come out as they went in; on a pod
// that was a fifth of what tracking costs (BenchmarkUpdatePod,
// BenchmarkCreateUpdateManagedFields in apiserver). Two memos cut it:
//
//   - a FieldManager remembers the sets it parsed, by their FieldsV1 bytes:
//     the same object's entries come back on its next write, and the
//     objects of one controller tend to carry the same sets;
//   - an entry decoded from a stored object keeps its bytes, and Encode
//     writes them again while its set is still the one they were parsed
//     into (sets are never changed in place: every operation returns a
//     new one), so only changed entries are serialized.
//
// A third memo is for the writer itself: a writer that adds fields to
// what it owned (a label, a container) gets its old set with them, and
// that set is written out whole, though the writes of one controller, or
// one client replacing objects made alike, repeat the same sum again and
// again. The FieldManager remembers each sum by its two parts (the old
// set, which the first memo shares, and the added fields' FieldsV1) with
// its bytes: a writer that adds the same fields to the same set costs the
// small set's serialization, not the union and the whole set's. On the
// replace of BenchmarkCreateUpdateManagedFields (BenchmarkReplacePod)
// that is about a quarter of the field manager's time.
//
// And an entry's identity (its map key, made on every Get and Put) is
// written by hand when its strings need no escaping, not by json.Marshal.
//
// Bytes a client sent are never reused: they are re-encoded, as
// Kubernetes does, so stored FieldsV1 is always canonical.

import (
	"slices"
	"strings"
	"sync"

	"kubeloop/api"
	"kubeloop/apiserver/fieldmanager/fieldpath"
)

// fieldsMemoSize bounds each memo; when full it starts over.
const fieldsMemoSize = 4096

// fieldsMemo is a FieldManager's parsed sets by FieldsV1 bytes, and its
// unions by their parts. The sets are shared between writes and so never
// changed.
type fieldsMemo struct {
	mu     sync.Mutex
	sets   map[string]*fieldpath.Set
	unions map[unionKey]unionOf
}

// unionKey is a union's parts: a set the memo shares (held here, so its
// address is never reused) and the FieldsV1 of the fields added to it.
type unionKey struct {
	before *fieldpath.Set
	added  string
}

// unionOf is a union and its FieldsV1.
type unionOf struct {
	set *fieldpath.Set
	raw []byte
}

func newFieldsMemo() *fieldsMemo {
	return &fieldsMemo{sets: map[string]*fieldpath.Set{}, unions: map[unionKey]unionOf{}}
}

// union gives self before ∪ added with the FieldsV1 bytes of the sum, from
// the memo when the same fields were added to the same set before.
// before must be a set the memo handed out (decoded from stored bytes).
func (m *fieldsMemo) union(self *Entry, before, added *fieldpath.Set) {
	addedJSON, err := added.ToJSON()
	if err != nil {
		self.Fields = before.Union(added)
		return
	}
	key := unionKey{before, string(addedJSON)}
	m.mu.Lock()
	u, ok := m.unions[key]
	m.mu.Unlock()
	if !ok {
		u.set = before.Union(added)
		if u.raw, err = u.set.ToJSON(); err != nil {
			self.Fields = u.set
			return
		}
		m.mu.Lock()
		if len(m.unions) >= fieldsMemoSize {
			clear(m.unions)
		}
		m.unions[key] = u
		m.mu.Unlock()
	}
	// The bytes are copied: FieldsV1 is a mutable []byte on the object.
	self.Fields, self.raw, self.rawOf = u.set, slices.Clone(u.raw), u.set
}

// memoized reports whether e's set is one the memo handed out.
func (e *Entry) memoized() bool { return e.raw != nil && e.rawOf == e.Fields }

func (m *fieldsMemo) fromJSON(raw []byte) (*fieldpath.Set, error) {
	m.mu.Lock()
	s, ok := m.sets[string(raw)]
	m.mu.Unlock()
	if ok {
		return s, nil
	}
	s, err := fieldpath.FromJSON(raw)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	if len(m.sets) >= fieldsMemoSize {
		clear(m.sets)
	}
	m.sets[string(raw)] = s
	m.mu.Unlock()
	return s, nil
}

// decode reads stored managedFields through the memo, keeping each
// entry's bytes for Encode.
func (f *FieldManager) decode(encoded []api.ManagedFieldsEntry) (*Managed, error) {
	if f.memo == nil {
		return DecodeManagedFields(encoded)
	}
	return decodeManagedFields(encoded, f.memo.fromJSON, true)
}

// encodeFields is the entry's FieldsV1: the bytes it was decoded from if
// its set is unchanged, else the set written out.
func (e *Entry) encodeFields() ([]byte, error) {
	if e.raw != nil && e.rawOf == e.Fields {
		return e.raw, nil
	}
	return e.Fields.ToJSON()
}

// plainIdentifier writes what json.Marshal writes for id (its manager,
// operation, apiVersion and subresource; the rest is empty), when none of
// them has a character encoding/json escapes.
func plainIdentifier(id *api.ManagedFieldsEntry) (string, bool) {
	var b strings.Builder
	b.Grow(64 + len(id.Manager) + len(id.APIVersion) + len(id.Subresource))
	b.WriteByte('{')
	for _, f := range [...]struct{ name, value string }{
		{"manager", id.Manager}, {"operation", string(id.Operation)},
		{"apiVersion", id.APIVersion}, {"subresource", id.Subresource},
	} {
		if f.value == "" {
			continue
		}
		for i := 0; i < len(f.value); i++ {
			if c := f.value[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
				return "", false
			}
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + f.name + `":"`)
		b.WriteString(f.value)
		b.WriteByte('"')
	}
	b.WriteByte('}')
	return b.String(), true
}
