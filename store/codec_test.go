package store_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/store"
)

// The storage codec's promise is that nothing written comes back without
// a field: losing a field of an acknowledged write is the worst bug the
// store can have. Two tests hold it for every kind stored as protobuf:
// one reads the Go types (every field JSON writes has a protobuf number),
// one writes an object with every field set and reads it back.

// protobufKinds are the stored kinds whose values go to etcd as protobuf,
// as EncodeValue decides.
func protobufKinds(t *testing.T) []*api.ResourceInfo {
	t.Helper()
	var out []*api.ResourceInfo
	for _, info := range api.Builtin().All() {
		obj := info.New()
		require.NoError(t, api.Builtin().SetTypeMeta(obj))
		data, err := store.EncodeValue(obj)
		require.NoError(t, err, info.Kind)
		if bytes.HasPrefix(data, []byte(api.ProtobufPrefix)) {
			out = append(out, info)
		}
	}
	require.NotEmpty(t, out)
	return out
}

// ownProtobuf are the types whose protobuf message is not their Go layout:
// they marshal themselves (api/protobuf_wellknown.go:ownMessageOf), so
// their fields need no tags. A type added there must be added here, and
// the round trip below checks that its values survive.
var ownProtobuf = map[reflect.Type]bool{
	reflect.TypeFor[api.Time]():      true,
	reflect.TypeFor[api.MicroTime](): true,
	reflect.TypeFor[api.Quantity]():  true,
	reflect.TypeFor[api.FieldsV1]():  true,
}

var jsonMarshaler = reflect.TypeFor[json.Marshaler]()

// storedFields calls fn for every struct field of t and of the types it
// reaches that JSON writes, each struct type once: the fields whose json
// tag is not "-", and every field of a type with its own MarshalJSON
// (IntOrString, api.JSON and the schema's either-or types write fields
// their tags hide). TypeMeta is left out: the envelope carries it.
func storedFields(t reflect.Type, fn func(owner reflect.Type, f reflect.StructField)) {
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] || ownProtobuf[t] {
			return
		}
		seen[t] = true
		custom := t.Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(jsonMarshaler)
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Type == reflect.TypeFor[api.TypeMeta]() {
				continue
			}
			if f.Tag.Get("json") == "-" && !custom {
				continue
			}
			if !f.IsExported() && !custom {
				continue // encoding/json skips it
			}
			fn(t, f)
			walk(f.Type)
		}
	}
	walk(t)
}

func TestEveryFieldOfAProtobufKindHasAProtobufNumber(t *testing.T) {
	fields := 0
	for _, info := range protobufKinds(t) {
		storedFields(reflect.TypeOf(info.New()), func(owner reflect.Type, f reflect.StructField) {
			fields++
			tag, ok := f.Tag.Lookup("protobuf")
			assert.True(t, ok && tag != "-" && f.IsExported(),
				"%s: %s.%s is written as JSON but has no protobuf number: stored as protobuf it would be lost. "+
					"Give it Kubernetes' number (k8s.io/api's generated.proto), or store %s as JSON (store/codec.go)",
				info.Kind, owner.Name(), f.Name, info.Kind)
		})
	}
	assert.Greater(t, fields, 1000, "the walk should reach every field of every stored kind")
}

func TestEveryFieldOfEveryProtobufKindSurvivesTheStore(t *testing.T) {
	set := map[string]bool{}
	for _, info := range protobufKinds(t) {
		t.Run(info.Kind, func(t *testing.T) {
			orig := info.New()
			(&filler{set: set}).fill(reflect.ValueOf(orig).Elem(), nil)
			require.NoError(t, api.Builtin().SetTypeMeta(orig))

			data, err := store.EncodeValue(orig)
			require.NoError(t, err)
			require.True(t, bytes.HasPrefix(data, []byte(api.ProtobufPrefix)))
			got := info.New()
			require.NoError(t, store.DecodeValue(data, got))
			assert.Equal(t, orig, got)
		})
	}
	// The filler is the test's reach: a field it leaves zero is not
	// checked by the round trip.
	for _, info := range protobufKinds(t) {
		storedFields(reflect.TypeOf(info.New()), func(owner reflect.Type, f reflect.StructField) {
			assert.True(t, set[owner.String()+"."+f.Name], "the filler never set %s.%s", owner, f.Name)
		})
	}
}

// filler sets every field of an object to a value that is not zero and
// differs from its neighbours: each string and number its own, every
// pointer set, two elements in every slice and map. A type that contains
// itself (a CRD's schema) is filled two levels deep. set records the
// fields it made non-zero, as "api.Type.Field".
type filler struct {
	n   int
	set map[string]bool
}

func (f *filler) next() int {
	f.n++
	return f.n
}

// fill sets v, a value of a type reached through the struct types in
// stack. It reports false when v is a struct too deep to fill: a pointer,
// slice or map of it is then left nil.
func (f *filler) fill(v reflect.Value, stack []reflect.Type) bool {
	switch v.Type() {
	case reflect.TypeFor[api.Time]():
		v.Set(reflect.ValueOf(api.NewTime(time.Unix(1700000000+int64(f.next()), 0))))
		return true
	case reflect.TypeFor[api.MicroTime]():
		n := f.next()
		v.Set(reflect.ValueOf(api.NewMicroTime(time.Unix(1700000000+int64(n), int64(n)*1000))))
		return true
	case reflect.TypeFor[api.Quantity]():
		quantities := []string{"100m", "128Mi", "2", "1500m", "3Gi", "250k"}
		v.Set(reflect.ValueOf(api.MustParseQuantity(quantities[f.next()%len(quantities)])))
		return true
	case reflect.TypeFor[api.IntOrString]():
		// Either form, in turn: its JSON is one or the other.
		if n := f.next(); n%2 == 0 {
			v.Set(reflect.ValueOf(api.FromInt32(int32(n))))
			f.set["api.IntOrString.IntVal"] = true
		} else {
			v.Set(reflect.ValueOf(api.FromString(fmt.Sprintf("port-%d", n))))
			f.set["api.IntOrString.Type"], f.set["api.IntOrString.StrVal"] = true, true
		}
		return true
	case reflect.TypeFor[api.FieldsV1]():
		v.Set(reflect.ValueOf(api.FieldsV1{Raw: fmt.Appendf(nil, `{"f:field-%d":{}}`, f.next())}))
		return true
	case reflect.TypeFor[api.JSON]():
		v.Set(reflect.ValueOf(api.JSON{Raw: fmt.Appendf(nil, `{"value":%d}`, f.next())}))
		f.set["api.JSON.Raw"] = true
		return true
	case reflect.TypeFor[api.TypeMeta]():
		return true // the registry sets it, as the store does
	}

	switch v.Kind() {
	case reflect.Struct:
		depth := 0
		for _, s := range stack {
			if s == v.Type() {
				depth++
			}
		}
		if depth >= 2 {
			return false
		}
		stack = append(stack, v.Type())
		for i := range v.NumField() {
			sf := v.Type().Field(i)
			if !sf.IsExported() {
				continue
			}
			f.fill(v.Field(i), stack)
			if !v.Field(i).IsZero() {
				f.set[v.Type().String()+"."+sf.Name] = true
			}
		}
	case reflect.Pointer:
		e := reflect.New(v.Type().Elem())
		if f.fill(e.Elem(), stack) {
			v.Set(e)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			n := byte(f.next())
			v.SetBytes([]byte{n, n + 1, 0xff})
			return true
		}
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			if !f.fill(s.Index(i), stack) {
				return true
			}
		}
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for range 2 {
			key := reflect.New(v.Type().Key()).Elem()
			f.fill(key, stack)
			value := reflect.New(v.Type().Elem()).Elem()
			if !f.fill(value, stack) {
				return true
			}
			m.SetMapIndex(key, value)
		}
		v.Set(m)
	case reflect.String:
		v.SetString(fmt.Sprintf("s-%d", f.next()))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(f.next()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(f.next()))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(f.next()) + 0.5)
	default:
		panic(fmt.Sprintf("filler: %s has no filling", v.Type()))
	}
	return true
}
