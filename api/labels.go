package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// SelectionOperator is the relation of one label requirement.
type SelectionOperator string

// The label selection operators. Equals and DoubleEquals mean the same;
// String renders both as "=". GreaterThan and LessThan compare a label's
// value as an integer; they exist only in the string syntax (a
// LabelSelector object has no such operator).
const (
	SelectionEquals       SelectionOperator = "="
	SelectionDoubleEquals SelectionOperator = "=="
	SelectionNotEquals    SelectionOperator = "!="
	SelectionIn           SelectionOperator = "in"
	SelectionNotIn        SelectionOperator = "notin"
	SelectionExists       SelectionOperator = "exists"
	SelectionDoesNotExist SelectionOperator = "!"
	SelectionGreaterThan  SelectionOperator = "gt"
	SelectionLessThan     SelectionOperator = "lt"
)

// Requirement is one clause of a label selector: "app=web", "tier in
// (a,b)", "!canary". Values are sorted and have no duplicates.
type Requirement struct {
	Key      string
	Operator SelectionOperator
	Values   []string
}

// NewRequirement validates the key, the values and their number for the
// operator (one for =, !=, gt and lt, at least one for in and notin, none
// for exists and !), and reports every problem at once, in Kubernetes'
// words and field paths ("key", "values[0][app]"): labels.NewRequirement.
func NewRequirement(key string, op SelectionOperator, values []string) (Requirement, error) {
	var errs []string
	if msgs := IsQualifiedName(key); len(msgs) > 0 {
		errs = append(errs, invalidValue("key", key, strings.Join(msgs, "; ")))
	}
	switch op {
	case SelectionIn, SelectionNotIn:
		if len(values) == 0 {
			errs = append(errs, invalidValue("values", values, "for 'in', 'notin' operators, values set can't be empty"))
		}
	case SelectionEquals, SelectionDoubleEquals, SelectionNotEquals:
		if len(values) != 1 {
			errs = append(errs, invalidValue("values", values, "exact-match compatibility requires one single value"))
		}
	case SelectionExists, SelectionDoesNotExist:
		if len(values) != 0 {
			errs = append(errs, invalidValue("values", values, "values set must be empty for exists and does not exist"))
		}
	case SelectionGreaterThan, SelectionLessThan:
		if len(values) != 1 {
			errs = append(errs, invalidValue("values", values, "for 'Gt', 'Lt' operators, exactly one value is required"))
		}
		for i, v := range values {
			if _, err := strconv.ParseInt(v, 10, 64); err != nil {
				errs = append(errs, invalidValue(fmt.Sprintf("values[%d]", i), v, "for 'Gt', 'Lt' operators, the value must be an integer"))
			}
		}
	default:
		errs = append(errs, fmt.Sprintf("operator: Unsupported value: %q: supported values: %s", op,
			`"in", "notin", "=", "==", "!=", "gt", "lt", "exists", "!"`))
	}
	for i, v := range values {
		if msgs := IsValidLabelValue(v); len(msgs) > 0 {
			errs = append(errs, invalidValue(fmt.Sprintf("values[%d][%s]", i, key), v, strings.Join(msgs, "; ")))
		}
	}
	if len(errs) > 0 {
		return Requirement{}, errors.New(aggregateMessages(errs))
	}
	vals := slices.Clone(values)
	slices.Sort(vals)
	return Requirement{Key: key, Operator: op, Values: slices.Compact(vals)}, nil
}

// invalidValue renders a field error the way Kubernetes' field.Invalid
// prints: "path: Invalid value: <value>: detail", a string quoted, any
// other value as JSON.
func invalidValue(path string, value any, detail string) string {
	var shown string
	if s, ok := value.(string); ok {
		shown = strconv.Quote(s)
	} else {
		b, _ := json.Marshal(value) // []string never fails
		shown = string(b)
	}
	return fmt.Sprintf("%s: Invalid value: %s: %s", path, shown, detail)
}

// aggregateMessages joins messages as Kubernetes' utilerrors.Aggregate
// does: one alone as it is, several deduplicated inside "[a, b]".
func aggregateMessages(msgs []string) string {
	var unique []string
	for _, m := range msgs {
		if !slices.Contains(unique, m) {
			unique = append(unique, m)
		}
	}
	if len(unique) == 1 {
		return unique[0]
	}
	return "[" + strings.Join(unique, ", ") + "]"
}

// Matches applies the requirement. The negative operators (!=, notin) match
// when the label is absent, as in Kubernetes: "env!=prod" selects unlabelled
// objects too. gt and lt need the label to be present and an integer.
func (r Requirement) Matches(labels map[string]string) bool {
	v, ok := labels[r.Key]
	switch r.Operator {
	case SelectionEquals, SelectionDoubleEquals, SelectionIn:
		return ok && slices.Contains(r.Values, v)
	case SelectionNotEquals, SelectionNotIn:
		return !ok || !slices.Contains(r.Values, v)
	case SelectionExists:
		return ok
	case SelectionDoesNotExist:
		return !ok
	case SelectionGreaterThan, SelectionLessThan:
		if !ok || len(r.Values) != 1 {
			return false
		}
		have, err1 := strconv.ParseInt(v, 10, 64)
		bound, err2 := strconv.ParseInt(r.Values[0], 10, 64)
		if err1 != nil || err2 != nil {
			return false
		}
		if r.Operator == SelectionGreaterThan {
			return have > bound
		}
		return have < bound
	}
	return false
}

// String renders the requirement in the syntax ParseSelector reads.
func (r Requirement) String() string {
	switch r.Operator {
	case SelectionEquals, SelectionDoubleEquals:
		return r.Key + "=" + r.Values[0]
	case SelectionNotEquals:
		return r.Key + "!=" + r.Values[0]
	case SelectionGreaterThan:
		return r.Key + ">" + r.Values[0]
	case SelectionLessThan:
		return r.Key + "<" + r.Values[0]
	case SelectionIn, SelectionNotIn:
		return r.Key + " " + string(r.Operator) + " (" + strings.Join(r.Values, ",") + ")"
	case SelectionExists:
		return r.Key
	case SelectionDoesNotExist:
		return "!" + r.Key
	}
	return ""
}

// Requirements is a label selector: the AND of its requirements, sorted by
// key. The empty Requirements matches everything.
type Requirements []Requirement

// Matches is true when every requirement matches.
func (rs Requirements) Matches(labels map[string]string) bool {
	for _, r := range rs {
		if !r.Matches(labels) {
			return false
		}
	}
	return true
}

// Empty is true for the selector with no requirements.
func (rs Requirements) Empty() bool { return len(rs) == 0 }

// String joins the requirements with commas.
func (rs Requirements) String() string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = r.String()
	}
	return strings.Join(parts, ",")
}

// RequiresExactMatch returns the value key must equal, if a requirement
// pins it to one value.
func (rs Requirements) RequiresExactMatch(key string) (string, bool) {
	for _, r := range rs {
		if r.Key != key {
			continue
		}
		switch r.Operator {
		case SelectionEquals, SelectionDoubleEquals:
			return r.Values[0], true
		case SelectionIn:
			if len(r.Values) == 1 {
				return r.Values[0], true
			}
		}
	}
	return "", false
}

// NewSelector builds a selector from requirements, sorting them by key.
func NewSelector(reqs ...Requirement) Requirements {
	rs := slices.Clone(reqs)
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].Key < rs[j].Key })
	return rs
}

// Everything matches every object.
func Everything() Selector { return Requirements(nil) }

// nothingSelector matches no object. Like Kubernetes' it renders as "",
// which parses back to Everything: never send Nothing to a server.
type nothingSelector struct{}

func (nothingSelector) Matches(map[string]string) bool { return false }
func (nothingSelector) Empty() bool                    { return false }
func (nothingSelector) String() string                 { return "" }

// Nothing matches no object.
func Nothing() Selector { return nothingSelector{} }

// SelectorFromSet selects objects carrying every key=value of set. The
// values are not validated; use ValidatedSelectorFromSet for user input.
func SelectorFromSet(set map[string]string) Selector {
	rs := make([]Requirement, 0, len(set))
	for k, v := range set {
		rs = append(rs, Requirement{Key: k, Operator: SelectionEquals, Values: []string{v}})
	}
	return NewSelector(rs...)
}

// ValidatedSelectorFromSet is SelectorFromSet with key and value checks.
func ValidatedSelectorFromSet(set map[string]string) (Selector, error) {
	rs := make([]Requirement, 0, len(set))
	for k, v := range set {
		r, err := NewRequirement(k, SelectionEquals, []string{v})
		if err != nil {
			return nil, err
		}
		rs = append(rs, r)
	}
	return NewSelector(rs...), nil
}

// LabelSelectorAsSelector turns the object form of a selector into a
// Selector. As in Kubernetes, a nil *LabelSelector selects nothing (a
// controller with no selector must not adopt every pod), while a non-nil
// empty one selects everything.
func LabelSelectorAsSelector(ls *LabelSelector) (Selector, error) {
	if ls == nil {
		return Nothing(), nil
	}
	if len(ls.MatchLabels)+len(ls.MatchExpressions) == 0 {
		return Everything(), nil
	}
	rs := make([]Requirement, 0, len(ls.MatchLabels)+len(ls.MatchExpressions))
	for k, v := range ls.MatchLabels {
		r, err := NewRequirement(k, SelectionEquals, []string{v})
		if err != nil {
			return nil, err
		}
		rs = append(rs, r)
	}
	for _, e := range ls.MatchExpressions {
		var op SelectionOperator
		switch e.Operator {
		case LabelSelectorOpIn:
			op = SelectionIn
		case LabelSelectorOpNotIn:
			op = SelectionNotIn
		case LabelSelectorOpExists:
			op = SelectionExists
		case LabelSelectorOpDoesNotExist:
			op = SelectionDoesNotExist
		default:
			return nil, fmt.Errorf("%q is not a valid label selector operator", e.Operator)
		}
		r, err := NewRequirement(e.Key, op, e.Values)
		if err != nil {
			return nil, err
		}
		rs = append(rs, r)
	}
	return NewSelector(rs...), nil
}

// FormatLabelSelector renders a LabelSelector in string syntax, "<none>"
// for nil and "" for empty, as kubectl prints it.
func FormatLabelSelector(ls *LabelSelector) string {
	if ls == nil {
		return "<none>"
	}
	s, err := LabelSelectorAsSelector(ls)
	if err != nil {
		return "<error>"
	}
	return s.String()
}
