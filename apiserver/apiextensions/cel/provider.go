package cel

import (
	"fmt"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// typeProvider tells the CEL type checker about a schema's object types,
// and the interpreter how to read their fields from unstructured values:
// an object is a map[string]any at run time, a field is its JSON key. Any
// other type is the base provider's. Kubernetes: k8s.io/apiserver/pkg/cel/types.go
// (DeclTypeProvider), whose run-time values are wrappers
// (common/values.go); here the interpreter reads the maps directly.
type typeProvider struct {
	base    types.Provider
	objects map[string]*declType
}

func (p *typeProvider) EnumValue(name string) ref.Val { return p.base.EnumValue(name) }

func (p *typeProvider) FindIdent(name string) (ref.Val, bool) { return p.base.FindIdent(name) }

func (p *typeProvider) FindStructType(name string) (*types.Type, bool) {
	if d, ok := p.objects[name]; ok {
		return types.NewTypeTypeWithParam(d.cel), true
	}
	return p.base.FindStructType(name)
}

func (p *typeProvider) FindStructFieldNames(name string) ([]string, bool) {
	d, ok := p.objects[name]
	if !ok {
		return p.base.FindStructFieldNames(name)
	}
	names := make([]string, 0, len(d.fields))
	for n := range d.fields {
		names = append(names, n)
	}
	return names, true
}

func (p *typeProvider) FindStructFieldType(name, fieldName string) (*types.FieldType, bool) {
	d, ok := p.objects[name]
	if !ok {
		return p.base.FindStructFieldType(name, fieldName)
	}
	f, ok := d.fields[fieldName]
	if !ok {
		return nil, false
	}
	key := f.jsonName
	return &types.FieldType{
		Type: f.typ.cel,
		IsSet: func(target any) bool {
			m, ok := target.(map[string]any)
			if !ok {
				return false
			}
			_, set := m[key]
			return set
		},
		GetFrom: func(target any) (any, error) {
			m, _ := target.(map[string]any)
			v, ok := m[key]
			if !ok {
				return nil, fmt.Errorf("no such key: %s", fieldName)
			}
			return v, nil
		},
	}, true
}

// NewValue would build an object from a CEL literal (Type{a: 1});
// Kubernetes does not allow constructing schema types either.
func (p *typeProvider) NewValue(name string, fields map[string]ref.Val) ref.Val {
	if _, ok := p.objects[name]; ok {
		return types.NewErr("object construction of %s is not supported", name)
	}
	return p.base.NewValue(name, fields)
}
