package apply

import (
	"encoding/json"
	"errors"
	"strings"

	"kubeloop/api"
)

// FieldManager is the operator's name in managedFields, and the
// fieldManager of every request it makes.
const FieldManager = "webapp-operator"

// ContainerName is the name of the Deployment's one container.
const ContainerName = "web"

// ErrNotImplemented is what the stub returns.
var ErrNotImplemented = errors.New("not implemented yet")

// WebApp is the operator's configuration of one Deployment: what it has an
// opinion on, and nothing else.
type WebApp struct {
	Namespace, Name string
	// Image is the container's image.
	Image string
	// Replicas, when set, is the number of replicas the operator wants;
	// nil leaves spec.replicas to others (a user with kubectl, an
	// autoscaler) and to the default.
	Replicas *int32
	// Labels are put on the Deployment besides app: Name.
	Labels map[string]string
	// ForceConflicts takes the fields another manager owns: the apply is
	// sent with force=true. Only when told.
	ForceConflicts bool
}

// Result is what Apply did.
type Result struct {
	// Deployment is the object the server stored.
	Deployment *api.Deployment
	// Yielded are the fields the operator left to another manager after a
	// 409 Conflict, as the conflict named them (".spec.replicas"), in its
	// order; empty when there was no conflict.
	Yielded []string
}

// conflictingFields returns the fields a 409 Conflict of an apply names,
// one per FieldManagerConflict cause (".spec.replicas",
// ".metadata.labels.team"), or nil if err is no such conflict.
func conflictingFields(err error) []string {
	var se *api.StatusError
	if !errors.As(err, &se) || !api.IsConflict(err) || se.ErrStatus.Details == nil {
		return nil
	}
	var out []string
	for _, c := range se.ErrStatus.Details.Causes {
		if c.Type == api.CauseTypeFieldManagerConflict {
			out = append(out, c.Field)
		}
	}
	return out
}

// removeField deletes from an apply configuration the field a conflict
// names, in the path syntax of managedFields' messages: ".spec.replicas",
// ".metadata.labels.team", `.spec.template.spec.containers[name="web"].image`
// (a list element chosen by its key fields, given as JSON values). Maps
// left empty are removed too, so the configuration says nothing about
// them. It reports whether the field was there.
func removeField(obj map[string]any, path string) bool {
	steps, ok := parsePath(path)
	if !ok || len(steps) == 0 || steps[0].key != nil {
		return false
	}
	return removeSteps(obj, steps)
}

// step is one segment of a path: a field, or a list element by its keys.
type step struct {
	field string
	key   map[string]any
}

func parsePath(path string) ([]step, bool) {
	var steps []step
	for path != "" {
		switch path[0] {
		case '.':
			end := strings.IndexAny(path[1:], ".[")
			if end < 0 {
				end = len(path) - 1
			}
			steps = append(steps, step{field: path[1 : end+1]})
			path = path[end+1:]
		case '[':
			end, inString := -1, false
			for i := 1; i < len(path) && end < 0; i++ {
				switch {
				case path[i] == '\\' && inString:
					i++
				case path[i] == '"':
					inString = !inString
				case path[i] == ']' && !inString:
					end = i
				}
			}
			if end < 0 {
				return nil, false
			}
			key := map[string]any{}
			for _, kv := range splitOutsideQuotes(path[1:end]) {
				name, raw, found := strings.Cut(kv, "=")
				var v any
				if !found || json.Unmarshal([]byte(raw), &v) != nil {
					return nil, false
				}
				key[name] = v
			}
			steps = append(steps, step{key: key})
			path = path[end+1:]
		default:
			return nil, false
		}
	}
	return steps, true
}

func splitOutsideQuotes(s string) []string {
	var parts []string
	start, inString := 0, false
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && inString:
			i++
		case s[i] == '"':
			inString = !inString
		case s[i] == ',' && !inString:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// removeSteps walks obj along steps and deletes the last one, pruning the
// maps it leaves empty on the way back.
func removeSteps(obj map[string]any, steps []step) bool {
	s := steps[0]
	child, ok := obj[s.field]
	if !ok {
		return false
	}
	if len(steps) == 1 {
		delete(obj, s.field)
		return true
	}
	removed := false
	switch c := child.(type) {
	case map[string]any:
		if steps[1].key != nil {
			return false
		}
		removed = removeSteps(c, steps[1:])
		if removed && len(c) == 0 {
			delete(obj, s.field)
		}
	case []any:
		if steps[1].key == nil {
			return false
		}
		for i, el := range c {
			m, ok := el.(map[string]any)
			if !ok || !matches(m, steps[1].key) {
				continue
			}
			if len(steps) == 2 {
				obj[s.field] = append(c[:i:i], c[i+1:]...)
				return true
			}
			return removeSteps(m, steps[2:])
		}
	}
	return removed
}

// matches compares an element's key fields through JSON, so that 8080 and
// 8080.0 and int32(8080) are one number.
func matches(el, key map[string]any) bool {
	for k, want := range key {
		a, _ := json.Marshal(el[k])
		b, _ := json.Marshal(want)
		if string(a) != string(b) {
			return false
		}
	}
	return true
}
