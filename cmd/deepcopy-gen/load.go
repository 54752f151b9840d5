package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// optOutMarker is the doc-comment line that keeps a type out of the output.
const optOutMarker = "+kubeloop:deepcopy=false"

// pkg is what the generator knows about the package: its name and its
// top-level type declarations, from syntax alone.
type pkg struct {
	name  string
	types map[string]*typeDecl
}

// typeDecl is one `type Name ...` declaration.
type typeDecl struct {
	name    string
	spec    *ast.TypeSpec
	imports map[string]string // name → import path, of the declaring file
	optOut  bool
	// methods are the hand-written methods declared on the type (by name),
	// from any file of the package except the output.
	methods map[string]bool
}

// generic reports whether the declaration has type parameters.
func (d *typeDecl) generic() bool { return d.spec.TypeParams != nil }

// alias reports whether the declaration is `type A = B`.
func (d *typeDecl) alias() bool { return d.spec.Assign.IsValid() }

// handWritten reports whether a person wrote the type's deep copy.
func (d *typeDecl) handWritten() bool { return d.methods["DeepCopy"] || d.methods["DeepCopyInto"] }

// loadPackage parses the non-test Go files in dir, except output (the file
// being generated, whose old methods must not count as hand-written).
func loadPackage(dir, output string) (*pkg, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") || n == output {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no Go files in %s", dir)
	}
	p := &pkg{name: files[0].Name.Name, types: map[string]*typeDecl{}}
	for _, f := range files {
		if f.Name.Name != p.name {
			return nil, fmt.Errorf("%s: package %s, want %s", fset.File(f.Pos()).Name(), f.Name.Name, p.name)
		}
		imports := fileImports(f)
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				spec := s.(*ast.TypeSpec)
				doc := spec.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc // `// comment` above a lone `type T ...` belongs to the GenDecl
				}
				p.types[spec.Name.Name] = &typeDecl{
					name:    spec.Name.Name,
					spec:    spec,
					imports: imports,
					optOut:  hasMarker(doc, optOutMarker),
					methods: map[string]bool{},
				}
			}
		}
	}
	// Methods second: they may be declared in a file before their type.
	for _, f := range files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) == 0 {
				continue
			}
			if d := p.types[receiverTypeName(fd.Recv.List[0].Type)]; d != nil {
				d.methods[fd.Name.Name] = true
			}
		}
	}
	return p, nil
}

// sortedNames returns the package's type names in order, for a
// deterministic output.
func (p *pkg) sortedNames() []string {
	names := make([]string, 0, len(p.types))
	for n := range p.types {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// fileImports maps each import's name in f (its explicit name, or the last
// element of its path) to the path.
func fileImports(f *ast.File) map[string]string {
	m := map[string]string{}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		name := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		m[name] = path
	}
	return m
}

// receiverTypeName is T for receivers T, *T, T[A, B] and *T[A, B].
func receiverTypeName(e ast.Expr) string {
	if star, ok := e.(*ast.StarExpr); ok {
		e = star.X
	}
	switch t := e.(type) {
	case *ast.IndexExpr:
		e = t.X
	case *ast.IndexListExpr:
		e = t.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// hasMarker reports whether one line of the comment is exactly marker.
func hasMarker(doc *ast.CommentGroup, marker string) bool {
	if doc == nil {
		return false
	}
	for _, c := range doc.List {
		if strings.TrimSpace(strings.TrimPrefix(c.Text, "//")) == marker {
			return true
		}
	}
	return false
}
