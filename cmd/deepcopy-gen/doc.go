// Command deepcopy-gen writes the deep-copy methods of package api into
// api/zz_generated.deepcopy.go. It is what `go generate ./api` runs
// (api/doc.go has the //go:generate line).
//
// For every exported struct type T of the package it writes
//
//	func (in *T) DeepCopyInto(out *T)  // in must not be nil
//	func (in *T) DeepCopy() *T         // nil for nil
//
// for every exported map or slice type M (ResourceList) the same pair with a
// value receiver, and for every kind (a struct that embeds both TypeMeta and
// ObjectMeta) DeepCopyObject() Object, which is how a kind satisfies
// api.Object.
//
// What a copy is: value fields are assigned; a pointer gets a fresh value;
// slices and maps get fresh backing memory, element by element where the
// elements hold references themselves; an interface field of a named
// interface I is copied with its DeepCopyI method (Object → DeepCopyObject).
// nil stays nil and empty stays empty, so a copy compares reflect.DeepEqual
// to its original. Named types such as `type Quantity string` or
// `type ResourceList map[ResourceName]Quantity` are resolved from the
// package's own declarations; of other packages only time.Time,
// time.Duration (values) and encoding/json.RawMessage (bytes) are known. A
// field of any other type (a func, a chan, an empty interface, an unknown
// type) is an error that names the type and the field: a silent shallow copy
// would share memory between an informer's cache and the copy a controller
// changes.
//
// What is skipped: unexported types, aliases, generic types (api.List keeps
// its hand-written DeepCopy), types whose DeepCopy or DeepCopyInto is written
// by hand, and types whose doc comment has the line
//
//	// +kubeloop:deepcopy=false
//
// A hand-written type that another type embeds or holds must provide
// DeepCopyInto, which the generated code then calls.
//
// How it reads the package: with go/parser only, syntax and no type
// checking, so it works while the package does not compile (a new type whose
// methods do not exist yet). Test files and the output file itself are not
// read.
//
// Kubernetes counterpart: staging/src/k8s.io/code-generator/cmd/deepcopy-gen
// (generators/deepcopy.go, doStruct, doSlice, doMap, doPointer), pinned to
// v1.37.2, which runs on k8s.io/gengo's type-checked universe, works across
// packages, is switched on per package or type with
// +k8s:deepcopy-gen=package and +k8s:deepcopy-gen:interfaces=..., and also
// copies arrays of references and types from any package. The copy
// semantics and the method names here are the same.
package main
