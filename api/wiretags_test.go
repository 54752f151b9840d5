package api

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// k8s.io/api's own struct tags are not always right about the wire: a few
// say varint for a string (DeleteOptions.propagationPolicy) or "rep" for a
// single value (PodStatus.qosClass); its generated.proto is what the bytes
// follow. Ours say what goes on the wire, and this test keeps each tag
// consistent with its Go type, so the codec may trust the tag.
func TestProtobufTagsAgreeWithGoTypes(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(typ reflect.Type) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || seen[typ] || typ.PkgPath() != "kubeloop/api" {
			return
		}
		seen[typ] = true
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			walk(f.Type)
			tag, ok := f.Tag.Lookup("protobuf")
			if !ok {
				continue
			}
			parts := strings.Split(tag, ",")
			if !assert.GreaterOrEqual(t, len(parts), 3, "%s.%s: %q", typ.Name(), f.Name, tag) {
				continue
			}
			ft, card := f.Type, "opt"
			if (ft.Kind() == reflect.Slice && ft.Elem().Kind() != reflect.Uint8) || ft.Kind() == reflect.Map {
				card = "rep"
				if ft.Kind() == reflect.Slice {
					ft = ft.Elem()
				}
			}
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			wire := "bytes"
			switch ft.Kind() {
			case reflect.Bool, reflect.Int32, reflect.Int64, reflect.Int:
				wire = "varint"
			case reflect.Float64:
				wire = "fixed64"
			}
			assert.Equal(t, wire+","+card, parts[0]+","+parts[2], "%s.%s: %q", typ.Name(), f.Name, tag)
		}
	}
	for _, info := range Builtin().All() {
		walk(reflect.TypeOf(info.New()))
		walk(reflect.TypeOf(info.NewList()))
	}
	for _, body := range []any{Binding{}, Scale{}, DeleteOptions{}, Status{}} {
		walk(reflect.TypeOf(body))
	}
	assert.Greater(t, len(seen), 150, "the walk should reach every type of the served kinds")
}
