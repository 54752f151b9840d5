package fieldmanager

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"kubeloop/api"
	"kubeloop/apiserver/fieldmanager/fieldpath"
)

// Managed is an object's decoded managedFields: each manager's owned
// fields and when it last changed them, keyed by the manager's identity.
type Managed struct {
	entries map[string]*Entry
}

// Entry is one manager's ownership. Identity is Manager, Operation,
// Subresource and, for Update, APIVersion: an applier keeps one entry
// whichever version it applies in.
type Entry struct {
	Manager     string
	Operation   api.ManagedFieldsOperationType
	APIVersion  string
	Subresource string
	Time        *api.Time
	Fields      *fieldpath.Set
	// raw is the FieldsV1 Fields was decoded from, rawOf that set: Encode
	// reuses raw while Fields is still rawOf (managed_memo.go).
	raw   []byte
	rawOf *fieldpath.Set
}

// identifier is the entry's identity as Kubernetes spells it: the JSON of
// the entry without time, fields and (for Apply) apiVersion.
// Kubernetes: managedfields.go BuildManagerIdentifier.
func (e *Entry) identifier() string {
	id := api.ManagedFieldsEntry{Manager: e.Manager, Operation: e.Operation, APIVersion: e.APIVersion, Subresource: e.Subresource}
	if e.Operation == api.ManagedFieldsOperationApply {
		id.APIVersion = ""
	}
	if s, ok := plainIdentifier(&id); ok { // managed_memo.go
		return s
	}
	b, _ := json.Marshal(id) // a struct of strings always marshals
	return string(b)
}

// NewManaged returns an empty Managed.
func NewManaged() *Managed { return &Managed{entries: map[string]*Entry{}} }

// Get returns the entry with the identity of e, nil if none.
func (m *Managed) Get(e Entry) *Entry { return m.entries[e.identifier()] }

// Put stores an entry, replacing the one with its identity.
func (m *Managed) Put(e *Entry) { m.entries[e.identifier()] = e }

// Len counts the entries.
func (m *Managed) Len() int { return len(m.entries) }

// Entries lists the entries in the order Kubernetes writes them.
func (m *Managed) Entries() []*Entry {
	out := make([]*Entry, 0, len(m.entries))
	for _, e := range m.entries {
		out = append(out, e)
	}
	slices.SortFunc(out, compareEntries)
	return out
}

// compareEntries orders entries Apply before Update, then by time (whole
// seconds), manager, apiVersion and subresource. Kubernetes:
// managedfields.go sortEncodedManagedFields.
func compareEntries(p, q *Entry) int {
	if c := strings.Compare(string(p.Operation), string(q.Operation)); c != 0 {
		return c
	}
	if c := compareSeconds(p.Time, q.Time); c != 0 {
		return c
	}
	if c := strings.Compare(p.Manager, q.Manager); c != 0 {
		return c
	}
	if c := strings.Compare(p.APIVersion, q.APIVersion); c != 0 {
		return c
	}
	return strings.Compare(p.Subresource, q.Subresource)
}

func seconds(t *api.Time) int64 {
	if t == nil || t.IsZero() {
		return 0
	}
	return t.Unix()
}

func compareSeconds(a, b *api.Time) int {
	sa, sb := seconds(a), seconds(b)
	switch {
	case sa < sb:
		return -1
	case sa > sb:
		return 1
	}
	return 0
}

// DecodeManagedFields reads managedFields. Kubernetes:
// managedfields.go DecodeManagedFields.
func DecodeManagedFields(encoded []api.ManagedFieldsEntry) (*Managed, error) {
	return decodeManagedFields(encoded, fieldpath.FromJSON, false)
}

// decodeManagedFields is DecodeManagedFields with the FieldsV1 parser
// given (a FieldManager's memo, managed_memo.go); keepRaw keeps each
// entry's bytes for Encode to reuse.
func decodeManagedFields(encoded []api.ManagedFieldsEntry, fromJSON func([]byte) (*fieldpath.Set, error), keepRaw bool) (*Managed, error) {
	m := NewManaged()
	for i, raw := range encoded {
		if raw.FieldsType != "FieldsV1" {
			return nil, fmt.Errorf("error decoding entry %d: invalid fieldsType %q", i, raw.FieldsType)
		}
		set := fieldpath.NewSet()
		if raw.FieldsV1 != nil && raw.FieldsV1.Raw != nil {
			var err error
			if set, err = fromJSON(raw.FieldsV1.Raw); err != nil {
				return nil, fmt.Errorf("error decoding entry %d: %w", i, err)
			}
		}
		switch raw.Operation {
		case api.ManagedFieldsOperationApply, api.ManagedFieldsOperationUpdate:
		default:
			return nil, fmt.Errorf("error decoding entry %d: invalid operation %q", i, raw.Operation)
		}
		e := &Entry{Manager: raw.Manager, Operation: raw.Operation, APIVersion: raw.APIVersion,
			Subresource: raw.Subresource, Time: raw.Time, Fields: set, rawOf: set}
		if keepRaw && raw.FieldsV1 != nil {
			e.raw = raw.FieldsV1.Raw
		}
		m.Put(e)
	}
	return m, nil
}

// Encode writes the entries as managedFields, nil when there are none.
func (m *Managed) Encode() ([]api.ManagedFieldsEntry, error) {
	if m.Len() == 0 {
		return nil, nil
	}
	out := make([]api.ManagedFieldsEntry, 0, m.Len())
	for _, e := range m.Entries() {
		raw, err := e.encodeFields()
		if err != nil {
			return nil, fmt.Errorf("encoding the fields of %s: %w", e.Manager, err)
		}
		out = append(out, api.ManagedFieldsEntry{Manager: e.Manager, Operation: e.Operation,
			APIVersion: e.APIVersion, Time: e.Time, FieldsType: "FieldsV1",
			FieldsV1: &api.FieldsV1{Raw: raw}, Subresource: e.Subresource})
	}
	return out, nil
}

// isReset reports whether a client asked to clear managedFields: an empty
// list (not an absent one) or a list of one empty entry. Kubernetes:
// fieldmanager.go isResetManagedFields.
func isReset(fields []api.ManagedFieldsEntry) bool {
	if fields != nil && len(fields) == 0 {
		return true
	}
	return len(fields) == 1 && fields[0].Manager == "" && fields[0].Operation == "" &&
		fields[0].APIVersion == "" && fields[0].Time == nil && fields[0].FieldsType == "" &&
		fields[0].FieldsV1 == nil && fields[0].Subresource == ""
}
