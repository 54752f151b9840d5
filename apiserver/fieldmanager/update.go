package fieldmanager

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"kubeloop/api"
	"kubeloop/apiserver/fieldmanager/fieldpath"
	"kubeloop/apiserver/fieldmanager/typed"
)

// DefaultMaxUpdateManagers is how many Update entries an object keeps
// before the oldest are merged into one "ancient-changes" entry.
// Kubernetes: fieldmanager.go DefaultMaxUpdateManagers.
const DefaultMaxUpdateManagers = 10

// Manager names Kubernetes gives entries it makes up itself.
const (
	ancientChangesManager   = "ancient-changes"
	beforeFirstApplyManager = "before-first-apply"
	unknownManager          = "unknown"
)

// FieldManager tracks the managedFields of one kind through one endpoint
// (the resource or one of its subresources).
type FieldManager struct {
	// Type is the kind's schema; APIVersion its group/version ("apps/v1").
	Type       *typed.Type
	APIVersion string
	// Subresource is "" for the resource itself, else e.g. "status"; a
	// subresource write never takes managedFields from the request body.
	Subresource string
	// ResetFields are the fields this endpoint's strategy puts back
	// (ResetFieldsFor): never owned through it, never a conflict.
	ResetFields       *fieldpath.Set
	MaxUpdateManagers int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// memo remembers decoded FieldsV1 (managed_memo.go); nil: none.
	memo *fieldsMemo
}

// NewFieldManager returns the field manager of a kind at an endpoint,
// with the endpoint's reset fields.
func NewFieldManager(t *typed.Type, apiVersion, subresource string) *FieldManager {
	return &FieldManager{Type: t, APIVersion: apiVersion, Subresource: subresource,
		ResetFields: ResetFieldsFor(t, subresource), MaxUpdateManagers: DefaultMaxUpdateManagers,
		memo: newFieldsMemo()}
}

// stripFields are never owned: identity, server-set metadata and the
// managed fields themselves. Kubernetes: stripmeta.go NewStripMetaManager.
var stripFields = fieldpath.NewSet(
	fieldpath.MakePath("apiVersion"),
	fieldpath.MakePath("kind"),
	fieldpath.MakePath("metadata"),
	fieldpath.MakePath("metadata", "name"),
	fieldpath.MakePath("metadata", "namespace"),
	fieldpath.MakePath("metadata", "creationTimestamp"),
	fieldpath.MakePath("metadata", "selfLink"),
	fieldpath.MakePath("metadata", "uid"),
	fieldpath.MakePath("metadata", "clusterName"),
	fieldpath.MakePath("metadata", "generation"),
	fieldpath.MakePath("metadata", "managedFields"),
	fieldpath.MakePath("metadata", "resourceVersion"),
)

// Update sets newObj's managedFields for a create, update or non-apply
// patch by manager: the fields changed from liveObj to newObj go to the
// manager's Update entry (one per manager and subresource), leave every
// other entry, and emptied entries go. For a create, liveObj is an empty
// object of the kind. An existing object without managedFields stays
// without (Kubernetes starts tracking it at its first apply). Kubernetes:
// FieldManager.UpdateNoErrors: on an internal error the live object's
// managedFields are kept rather than failing the write.
func (f *FieldManager) Update(liveObj, newObj api.Object, manager string) {
	if err := f.update(liveObj, newObj, manager); err != nil {
		newObj.GetObjectMeta().ManagedFields = liveObj.GetObjectMeta().ManagedFields
	}
}

func (f *FieldManager) update(liveObj, newObj api.Object, manager string) error {
	if f.recordCreate(liveObj, newObj, manager) { // create_fast.go
		return nil
	}
	return f.updateByComparison(liveObj, newObj, manager)
}

// updateByComparison is update: compare the two objects and move what
// changed to the manager.
func (f *FieldManager) updateByComparison(liveObj, newObj api.Object, manager string) error {
	managed := f.decodeLiveOrNew(liveObj, newObj)
	newObj.GetObjectMeta().ManagedFields = nil
	if managed.Len() == 0 && liveObj.GetObjectMeta().UID != "" {
		// skipnonapplied.go: an object created before tracking began.
		return nil
	}
	cmp, err := typed.CompareObjects(liveObj, newObj, f.Type)
	if err != nil {
		return err
	}
	f.updateManaged(managed, cmp, f.entryFor(manager, api.ManagedFieldsOperationUpdate))
	f.capUpdateManagers(managed)
	encoded, err := managed.Encode()
	if err != nil {
		return err
	}
	newObj.GetObjectMeta().ManagedFields = encoded
	return nil
}

// decodeLiveOrNew picks the managedFields to start from: the request's if
// it sent decodable ones (and this is not a subresource), none if it asked
// for a reset, else the live object's. Kubernetes: fieldmanager.go
// decodeLiveOrNew.
func (f *FieldManager) decodeLiveOrNew(liveObj, newObj api.Object) *Managed {
	fromLive := func() *Managed {
		m, err := f.decode(liveObj.GetObjectMeta().ManagedFields)
		if err != nil {
			return NewManaged()
		}
		return m
	}
	if f.Subresource != "" {
		return fromLive()
	}
	sent := newObj.GetObjectMeta().ManagedFields
	if isReset(sent) {
		return NewManaged()
	}
	if sameEntries(sent, liveObj.GetObjectMeta().ManagedFields) {
		return fromLive() // sent back as read (update_fast.go)
	}
	m, err := DecodeManagedFields(sent) // a client's bytes are re-encoded
	if err != nil || m.Len() == 0 {
		return fromLive()
	}
	return m
}

// entryFor is the identity of manager's entry for an operation here; an
// empty name is "unknown". Kubernetes: buildmanagerinfo.go.
func (f *FieldManager) entryFor(manager string, op api.ManagedFieldsOperationType) *Entry {
	if manager == "" {
		manager = unknownManager
	}
	return &Entry{Manager: manager, Operation: op, APIVersion: f.APIVersion, Subresource: f.Subresource}
}

// updateManaged moves ownership of what changed (cmp, from the live to the
// updated object) to self: every other manager loses the fields that were
// modified or added (an Update is always forced) and everyone loses
// removed fields; self's entry gains the modified and added fields and, if
// it gained any, a new time. Kubernetes: merge/update.go Updater.Update,
// managedfieldsupdater.go, stripmeta.go.
func (f *FieldManager) updateManaged(managed *Managed, cmp *typed.Comparison, self *Entry) {
	cmp = f.filterComparison(cmp)
	if cmp.IsSame() {
		return
	}
	changed := union(cmp.Modified, cmp.Added)
	prev := managed.Get(*self)
	var before *fieldpath.Set
	if prev != nil {
		before = prev.Fields
	}
	regains := prev != nil && regainsAllItLoses(before, cmp.Removed) // update_fast.go
	for id, e := range managed.entries {
		if e == prev && regains {
			continue
		}
		// self's own previous entry is included: it loses the changed
		// fields and gets them back below, as Kubernetes' "current-operation"
		// entry is merged into it.
		e.Fields = withoutFields(e.Fields, changed, cmp.Removed)
		if e.Fields.Empty() {
			delete(managed.entries, id)
		}
	}
	if changed.CoveredBy(stripFields, nil) { // gained nothing
		return
	}
	if prev != nil && keepsOwnership(before, changed, cmp.Removed) {
		keepSet(self, prev, before) // update_fast.go
	} else {
		gained := changed.Difference(stripFields)
		switch {
		case regains && f.memo != nil && prev.memoized():
			f.memo.union(self, before, gained) // managed_memo.go
			gained = self.Fields
		case regains:
			gained = before.Union(gained)
		case prev != nil:
			gained = gained.Union(prev.Fields)
		}
		self.Fields = gained
	}
	now := api.NewTime(f.now())
	self.Time = &now
	managed.Put(self)
}

func (f *FieldManager) now() time.Time {
	if f.Now != nil {
		return f.Now()
	}
	return time.Now()
}

// capUpdateManagers keeps at most MaxUpdateManagers Update entries: the
// oldest beyond that are merged, per apiVersion, into one
// "ancient-changes" entry that takes the time of the newest merged.
// Kubernetes: capmanagers.go capUpdateManagers.
func (f *FieldManager) capUpdateManagers(managed *Managed) {
	var updaters []*Entry
	for _, e := range managed.entries {
		if e.Operation == api.ManagedFieldsOperationUpdate {
			updaters = append(updaters, e)
		}
	}
	if len(updaters) <= f.MaxUpdateManagers {
		return
	}
	sortOldestFirst(updaters)
	firstOfVersion := map[string]*Entry{}
	length := len(updaters)
	for _, e := range updaters {
		if length <= f.MaxUpdateManagers {
			break
		}
		first, ok := firstOfVersion[e.APIVersion]
		if !ok {
			firstOfVersion[e.APIVersion] = e
			continue
		}
		bucket := managed.Get(Entry{Manager: ancientChangesManager, Operation: api.ManagedFieldsOperationUpdate, APIVersion: e.APIVersion})
		if bucket == nil {
			// the first old entry of this version becomes the bucket
			delete(managed.entries, first.identifier())
			bucket = &Entry{Manager: ancientChangesManager, Operation: api.ManagedFieldsOperationUpdate,
				APIVersion: e.APIVersion, Time: first.Time, Fields: first.Fields}
			managed.Put(bucket)
		}
		bucket.Fields = e.Fields.Union(bucket.Fields)
		bucket.Time = e.Time
		delete(managed.entries, e.identifier())
		length--
	}
}

// sortOldestFirst orders entries by time in seconds, then identity.
func sortOldestFirst(es []*Entry) {
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && olderThan(es[j], es[j-1]); j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}

func olderThan(a, b *Entry) bool {
	if c := compareSeconds(a.Time, b.Time); c != 0 {
		return c < 0
	}
	return a.identifier() < b.identifier()
}

// ManagerOrUserAgent is the manager name of a write: the fieldManager
// parameter, else the printable characters of the user agent up to its
// first '/' ("kubectl" for "kubectl/v1.37.2 (linux/amd64) kubernetes/abc"),
// at most 128 bytes of them. Kubernetes: handlers/create.go
// managerOrUserAgent and prefixFromUserAgent.
func ManagerOrUserAgent(manager, userAgent string) string {
	if manager != "" {
		return manager
	}
	prefix, _, _ := strings.Cut(userAgent, "/")
	var b strings.Builder
	for _, r := range prefix {
		if !unicode.IsPrint(r) {
			continue
		}
		if b.Len()+utf8.RuneLen(r) > maxManagerLength {
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}

// maxManagerLength bounds a manager name in bytes. Kubernetes:
// apimachinery meta/v1/validation FieldManagerMaxLength.
const maxManagerLength = 128

// ValidateManager lists what is wrong with a fieldManager parameter, in
// Kubernetes' words (meta/v1/validation ValidateFieldManager): longer than
// 128 bytes, or a character that is not printable. Empty is valid (the
// user agent names the manager) except for apply, which checks that itself.
func ValidateManager(manager string) []api.StatusCause {
	var causes []api.StatusCause
	if len(manager) > maxManagerLength {
		causes = append(causes, api.StatusCause{Type: api.CauseTypeFieldValueTooLong, Field: "fieldManager",
			Message: fmt.Sprintf("Too long: may not be more than %d bytes", maxManagerLength)})
	}
	for i, r := range manager {
		if !unicode.IsPrint(r) {
			causes = append(causes, api.StatusCause{Type: api.CauseTypeFieldValueInvalid, Field: "fieldManager",
				Message: fmt.Sprintf("Invalid value: %q: invalid character %#U (at position %d)", manager, r, i)})
		}
	}
	return causes
}
