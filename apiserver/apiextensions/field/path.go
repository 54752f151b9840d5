package field

import "strconv"

// Path names a field as field.Path prints it: children joined by ".",
// list indices and map keys in brackets ("metadata.labels[app]"). The zero
// Path is the root; a root-level error prints its field as "".
type Path string

// NewPath starts a path at name, followed by more children.
func NewPath(name string, more ...string) Path { return Path("").Child(name, more...) }

// Child appends ".name" for each name (just "name" at the root).
func (p Path) Child(name string, more ...string) Path {
	p = p.child(name)
	for _, n := range more {
		p = p.child(n)
	}
	return p
}

func (p Path) child(name string) Path {
	if p == "" {
		return Path(name)
	}
	return p + "." + Path(name)
}

// Index appends "[i]".
func (p Path) Index(i int) Path { return p + "[" + Path(strconv.Itoa(i)) + "]" }

// Key appends "[key]", unquoted as Kubernetes prints it.
func (p Path) Key(key string) Path { return p + "[" + Path(key) + "]" }

func (p Path) String() string { return string(p) }
