package serializer

// Skip on a first reading: a memory saving. jsonEncoder.Encode is complete
// without it: api.Marshal of a list gives the same bytes.
//
// What it saves: json.Marshal builds its output in a buffer it takes from
// and gives back to encoding/json's own pool, whatever its size. A LIST of
// 30 000 pods grew that buffer to some 145 MB (and copied it once more for
// the result); back in the pool, it was reused by the next, small,
// encodings and so stayed alive for as long as the apiserver was busy: at
// 30 pods on 1000 nodes it was a seventh of the heap that a forced GC left
// (BenchmarkScaleGrowth, docs/performance.md, session 7). Here a long
// list is encoded one item at a time, each through api.Marshal, into a
// buffer of its own that goes with the response. Kubernetes encodes lists
// item by item too (apimachinery's json serializer, streaming collection
// encoding), to bound what one LIST costs the apiserver's memory.

import (
	"bytes"
	"encoding/json"
	"reflect"

	"kubeloop/api"
)

// itemByItemMinItems is the length from which a list is encoded item by
// item; shorter ones take the plain path.
const itemByItemMinItems = 100

// listHead is a list without its items: what api.Marshal writes before
// them, when the list is an api.List (TypeMeta, ListMeta, Items, in that
// order, and no MarshalJSON of its own).
type listHead struct {
	api.TypeMeta `json:",inline"`
	api.ListMeta `json:"metadata"`
	Items        *struct{} `json:"items"`
}

// encodeListItemByItem returns the list's JSON, as api.Marshal would write
// it, or ok false for a list it does not know how to split.
func encodeListItemByItem(l api.ListObject) (out []byte, ok bool, err error) {
	items := l.GetItems()
	if len(items) < itemByItemMinItems || !isPlainList(l) {
		return nil, false, nil
	}
	head, err := json.Marshal(listHead{TypeMeta: *l.GetTypeMeta(), ListMeta: *l.GetListMeta()})
	if err != nil {
		return nil, false, err
	}
	head, found := bytes.CutSuffix(head, []byte("null}"))
	if !found {
		return nil, false, nil
	}
	encoded := make([][]byte, len(items))
	size := len(head) + 2 + len(items)
	for i, item := range items {
		if encoded[i], err = api.Marshal(item); err != nil {
			return nil, true, err
		}
		size += len(encoded[i])
	}
	out = make([]byte, 0, size)
	out = append(out, head...)
	out = append(out, '[')
	for i, b := range encoded {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, b...)
	}
	return append(out, "]}"...), true, nil
}

// isPlainList: the list is a struct of TypeMeta, ListMeta and Items, in
// that order, that json.Marshal encodes by its fields.
func isPlainList(l api.ListObject) bool {
	if _, custom := l.(json.Marshaler); custom {
		return false
	}
	t := reflect.TypeOf(l)
	if t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		return false
	}
	t = t.Elem()
	want := []string{"TypeMeta", "ListMeta", "Items"}
	if t.NumField() != len(want) {
		return false
	}
	for i, name := range want {
		if t.Field(i).Name != name || t.Field(i).Tag.Get("json") != reflect.TypeOf(listHead{}).Field(i).Tag.Get("json") {
			return false
		}
	}
	return true
}
