package main

import (
	"fmt"
	"go/ast"
)

// shapeKind says how a value of a type is deep-copied.
type shapeKind int

const (
	// plain: assignment copies it (numbers, strings, structs of those,
	// time.Time), so `*out = *in` already did.
	plain shapeKind = iota
	// method: a struct of this package with references; its DeepCopyInto
	// (generated or hand-written) copies it.
	method
	// slice or map (named or not): fresh backing memory, element by element.
	container
	// pointer: a fresh value behind it.
	pointer
	// iface: a named interface I whose DeepCopyI method copies it.
	iface
	// unsupported: no way to copy it that shares no memory; an error.
	unsupported
)

// shape is how one type is copied, with what the copy code needs.
type shape struct {
	kind shapeKind
	// container: the type to make(); pointer: the element type to new().
	// typeName when the type has a name of this package, else typ printed.
	typeName string
	typ      ast.Expr
	// container: the element (slice) or value (map) type; pointer: the
	// element type.
	elem  ast.Expr
	isMap bool
	// iface: the method, "DeepCopyObject".
	method string
	// from is the declaration whose file resolves elem's package names.
	from *typeDecl
	// unsupported: why, for the error message.
	reason string
}

// classify works out the shape of type expression t, written in the file of
// from. Named types of the package are resolved through their declarations
// and remembered.
func (g *generator) classify(t ast.Expr, from *typeDecl) shape {
	switch t := t.(type) {
	case *ast.Ident:
		if d := g.pkg.types[t.Name]; d != nil {
			return g.classifyNamed(d)
		}
		return classifyPredeclared(t.Name)
	case *ast.ParenExpr:
		return g.classify(t.X, from)
	case *ast.StarExpr:
		return shape{kind: pointer, typ: t.X, elem: t.X, from: from}
	case *ast.ArrayType:
		if t.Len != nil { // an array is a value: plain if its elements are
			if g.classify(t.Elt, from).kind == plain {
				return shape{kind: plain}
			}
			return shape{kind: unsupported, reason: "an array of references is not supported; use a slice"}
		}
		return shape{kind: container, typ: t, elem: t.Elt, from: from}
	case *ast.MapType:
		if k := g.classify(t.Key, from); k.kind != plain {
			return shape{kind: unsupported, reason: "a map key must be a plain value"}
		}
		return shape{kind: container, typ: t, elem: t.Value, isMap: true, from: from}
	case *ast.SelectorExpr:
		return g.classifyExternal(t, from)
	case *ast.StructType:
		if g.structIsPlain(t, from) {
			return shape{kind: plain}
		}
		return shape{kind: unsupported, reason: "an anonymous struct with references is not supported; name it"}
	case *ast.IndexExpr, *ast.IndexListExpr:
		// An instantiated generic type (List[Pod, *Pod]): only a
		// hand-written DeepCopyInto on the generic type can copy it.
		if d := g.pkg.types[receiverTypeName(t)]; d != nil && d.methods["DeepCopyInto"] {
			return shape{kind: method}
		}
		return shape{kind: unsupported, reason: "a generic type needs a hand-written DeepCopyInto"}
	case *ast.FuncType:
		return shape{kind: unsupported, reason: "a func cannot be deep-copied"}
	case *ast.ChanType:
		return shape{kind: unsupported, reason: "a channel cannot be deep-copied"}
	case *ast.InterfaceType:
		return shape{kind: unsupported, reason: "an unnamed interface has no DeepCopy method; name it and give it DeepCopy<Name>"}
	}
	return shape{kind: unsupported, reason: fmt.Sprintf("unknown type expression %T", t)}
}

// classifyNamed is the shape of a type declared in the package, memoised:
// every field of every struct asks about the same few names.
func (g *generator) classifyNamed(d *typeDecl) shape {
	if s, ok := g.shapes[d.name]; ok {
		return s
	}
	// A value type cannot contain itself, so meeting d again while working
	// it out means the declarations are broken; say so instead of looping.
	g.shapes[d.name] = shape{kind: unsupported, reason: "a recursive type"}
	s := g.classifyDecl(d)
	g.shapes[d.name] = s
	return s
}

func (g *generator) classifyDecl(d *typeDecl) shape {
	if d.alias() {
		return g.classify(d.spec.Type, d)
	}
	if d.generic() {
		if d.methods["DeepCopyInto"] {
			return shape{kind: method}
		}
		return shape{kind: unsupported, reason: "a generic type needs a hand-written DeepCopyInto"}
	}
	switch u := d.spec.Type.(type) {
	case *ast.StructType:
		if d.methods["DeepCopyInto"] {
			return shape{kind: method} // the author knows best, even for a plain struct
		}
		if g.structIsPlain(u, d) {
			return shape{kind: plain}
		}
		if g.generates(d) {
			return shape{kind: method}
		}
		return shape{kind: unsupported, reason: d.name + " " + whyNotGenerated(d) + " and has no DeepCopyInto"}
	case *ast.InterfaceType:
		m := "DeepCopy" + d.name
		if !declaresMethod(u, m) {
			return shape{kind: unsupported, reason: fmt.Sprintf("interface %s has no %s method", d.name, m)}
		}
		return shape{kind: iface, method: m}
	case *ast.ArrayType, *ast.MapType:
		// A named slice or map is copied like its underlying type, but made
		// with its own name: make(ResourceList, n).
		s := g.classify(u, d)
		if s.kind == container {
			s.typeName = d.name
		}
		return s
	case *ast.Ident:
		// `type A B`: A has B's layout but none of B's methods.
		s := g.classify(u, d)
		if s.kind == method {
			return shape{kind: unsupported, reason: fmt.Sprintf("%s is defined as struct %s, whose DeepCopyInto it does not have", d.name, u.Name)}
		}
		return s
	}
	return g.classify(d.spec.Type, d)
}

// structIsPlain reports whether no field of st holds a reference.
func (g *generator) structIsPlain(st *ast.StructType, from *typeDecl) bool {
	for _, f := range st.Fields.List {
		if g.classify(f.Type, from).kind != plain {
			return false
		}
	}
	return true
}

// classifyPredeclared is the shape of a name not declared in the package.
func classifyPredeclared(name string) shape {
	switch name {
	case "bool", "string", "byte", "rune", "uintptr",
		"int", "int8", "int16", "int32", "int64",
		"uint", "uint8", "uint16", "uint32", "uint64",
		"float32", "float64", "complex64", "complex128":
		return shape{kind: plain}
	case "any":
		return shape{kind: unsupported, reason: "an empty interface has no DeepCopy method; use a named interface with DeepCopy<Name>"}
	case "error":
		return shape{kind: unsupported, reason: "an error cannot be deep-copied"}
	}
	return shape{kind: unsupported, reason: "unknown type " + name + " (not declared in package)"}
}

// classifyExternal knows the few types of other packages that package api
// holds. Anything else is unsupported rather than guessed at.
func (g *generator) classifyExternal(t *ast.SelectorExpr, from *typeDecl) shape {
	pkgName, ok := t.X.(*ast.Ident)
	if !ok {
		return shape{kind: unsupported, reason: "unknown type expression"}
	}
	path := from.imports[pkgName.Name]
	switch path + "." + t.Sel.Name {
	case "time.Time", "time.Duration":
		// time.Time holds a *Location, but locations are never changed
		// once made, so sharing one is what copying a Time always does.
		return shape{kind: plain}
	case "encoding/json.RawMessage":
		return shape{kind: container, typ: t, elem: ast.NewIdent("byte"), from: from}
	}
	return shape{kind: unsupported, reason: fmt.Sprintf("type %s.%s of package %q is not known to the generator", pkgName.Name, t.Sel.Name, path)}
}

// generates reports whether the output has DeepCopyInto and DeepCopy for d.
func (g *generator) generates(d *typeDecl) bool {
	if whyNotGenerated(d) != "" {
		return false
	}
	switch u := d.spec.Type.(type) {
	case *ast.StructType, *ast.MapType:
		return true
	case *ast.ArrayType:
		return u.Len == nil
	}
	return false
}

// whyNotGenerated says why d is skipped, or "" if it is not.
func whyNotGenerated(d *typeDecl) string {
	switch {
	case !ast.IsExported(d.name):
		return "is unexported"
	case d.alias():
		return "is an alias"
	case d.generic():
		return "is generic"
	case d.optOut:
		return "is marked " + optOutMarker
	case d.handWritten():
		return "has a hand-written DeepCopy"
	}
	return ""
}

// declaresMethod reports whether the interface lists method name itself.
func declaresMethod(it *ast.InterfaceType, name string) bool {
	for _, m := range it.Methods.List {
		for _, n := range m.Names {
			if n.Name == name {
				return true
			}
		}
	}
	return false
}
