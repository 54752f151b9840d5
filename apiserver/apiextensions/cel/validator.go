package cel

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/interpreter"

	"kubeloop/api"
	"kubeloop/apiserver/apiextensions/field"
	"kubeloop/apiserver/apiextensions/schema"
)

// Validator runs a schema's x-kubernetes-validations over custom
// resources. It mirrors the schema's tree, keeping only the nodes with
// rules and the paths to them, each node's rules compiled once when the
// Validator is built. It is safe for concurrent use.
type Validator struct {
	schema     *schema.Structural
	compiled   *compiledNode // nil when the node has no rules
	properties map[string]*Validator
	additional *Validator // additionalProperties
	items      *Validator
}

// NewValidator compiles every rule of s. It returns nil when s has no
// rules at all, so that a CRD without them costs nothing per write.
// isResourceRoot says s is a version's whole schema (self then also has
// apiVersion, kind, metadata.name and metadata.generateName).
func (c *Compiler) NewValidator(s *schema.Structural, isResourceRoot bool) *Validator {
	if s == nil || !hasRules(s) {
		return nil
	}
	v := &Validator{schema: s, compiled: c.compileNode(s, isResourceRoot)}
	for _, k := range sortedKeys(s.Properties) {
		p := s.Properties[k]
		if pv := c.NewValidator(&p, p.XEmbeddedResource); pv != nil {
			if v.properties == nil {
				v.properties = map[string]*Validator{}
			}
			v.properties[k] = pv
		}
	}
	if s.AdditionalProperties != nil {
		v.additional = c.NewValidator(s.AdditionalProperties.Structural, s.AdditionalProperties.Structural != nil && s.AdditionalProperties.Structural.XEmbeddedResource)
	}
	if s.Items != nil {
		v.items = c.NewValidator(s.Items, s.Items.XEmbeddedResource)
	}
	return v
}

func hasRules(s *schema.Structural) bool {
	if s == nil {
		return false
	}
	if len(s.XValidations) > 0 || hasRules(s.Items) {
		return true
	}
	if s.AdditionalProperties != nil && hasRules(s.AdditionalProperties.Structural) {
		return true
	}
	for _, p := range s.Properties {
		if hasRules(&p) {
			return true
		}
	}
	return false
}

// Validate evaluates every rule on obj (and, for transition rules, on the
// correlated part of oldObj, nil on create) and returns the failures at
// their field paths below p, with what remains of costBudget (negative
// once the budget ran out: no further rules ran). Start with
// RuntimeCELCostBudget per object.
func (v *Validator) Validate(ctx context.Context, p field.Path, obj, oldObj any, costBudget int64) (field.ErrorList, int64) {
	if v == nil || obj == nil {
		return nil, costBudget
	}
	errs, budget := v.validateExpressions(ctx, p, obj, oldObj, costBudget)
	if budget < 0 {
		return errs, budget
	}
	switch t := obj.(type) {
	case map[string]any:
		old, _ := oldObj.(map[string]any)
		correlatable := mapIsCorrelatable(v.schema.XMapType)
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			var child *Validator
			var cp field.Path
			if pv, ok := v.properties[k]; ok {
				child, cp = pv, p.Child(k)
			} else if _, known := v.schema.Properties[k]; !known && v.additional != nil {
				child, cp = v.additional, p.Key(k)
			}
			if child == nil {
				continue
			}
			var oldV any
			if correlatable && old != nil {
				oldV = old[k]
			}
			var e field.ErrorList
			e, budget = child.Validate(ctx, cp, t[k], oldV, budget)
			errs = append(errs, e...)
			if budget < 0 {
				return errs, budget
			}
		}
	case []any:
		if v.items == nil {
			return errs, budget
		}
		old, _ := oldObj.([]any)
		correlated := correlateListMap(v.schema, old)
		for i, e := range t {
			var itemErrs field.ErrorList
			itemErrs, budget = v.items.Validate(ctx, p.Index(i), e, correlated(e), budget)
			errs = append(errs, itemErrs...)
			if budget < 0 {
				return errs, budget
			}
		}
	}
	return errs, budget
}

// mapIsCorrelatable: an object's fields and a map's entries are matched
// to the old object's by name, whatever the map type.
func mapIsCorrelatable(mapType *string) bool {
	return mapType == nil || *mapType == "granular" || *mapType == "atomic"
}

// correlateListMap finds an element's old self: in a list of type map,
// the old element with the same keys; in any other list, none (an
// element's position says nothing about its identity).
func correlateListMap(s *schema.Structural, old []any) func(any) any {
	if s.XListType == nil || *s.XListType != "map" || len(s.XListMapKeys) == 0 || len(old) == 0 {
		return func(any) any { return nil }
	}
	keyOf := func(x any) (string, bool) {
		m, ok := x.(map[string]any)
		if !ok {
			return "", false
		}
		var b strings.Builder
		for _, k := range s.XListMapKeys {
			fmt.Fprintf(&b, "%q=%#v;", k, m[k])
		}
		return b.String(), true
	}
	byKey := map[string]any{}
	for _, o := range old {
		if k, ok := keyOf(o); ok {
			if _, dup := byKey[k]; !dup {
				byKey[k] = o
			}
		}
	}
	return func(x any) any {
		k, ok := keyOf(x)
		if !ok {
			return nil
		}
		return byKey[k]
	}
}

// activation binds self and oldSelf.
type activation struct {
	self, oldSelf any
	hasOldSelf    bool
}

func (a *activation) ResolveName(name string) (any, bool) {
	switch name {
	case ScopedVarName:
		return a.self, true
	case OldScopedVarName:
		return a.oldSelf, a.hasOldSelf
	}
	return nil, false
}

func (a *activation) Parent() interpreter.Activation { return nil }

// optionalActivation is what an optionalOldSelf rule sees: oldSelf an
// optional, empty on create.
func optionalActivation(self, old any, hasOld bool) *activation {
	a := &activation{self: self, hasOldSelf: true, oldSelf: types.OptionalNone}
	if hasOld {
		a.oldSelf = types.OptionalOf(types.DefaultTypeAdapter.NativeToValue(old))
	}
	return a
}

func (v *Validator) validateExpressions(ctx context.Context, p field.Path, obj, oldObj any, budget int64) (field.ErrorList, int64) {
	n := v.compiled
	if n == nil || obj == nil {
		return nil, budget
	}
	typ := v.schema.Type
	// The root prints as Kubernetes prints its nil field.Path.
	p = orNil(p)
	if n.err != nil {
		return field.ErrorList{field.Invalid(p, typ, fmt.Sprintf("rule compiler initialization error: %v", n.err))}, budget
	}
	if budget <= 0 {
		return field.ErrorList{field.Invalid(p, typ, "validation failed due to running out of cost budget, no further validation rules will be run")}, -1
	}
	self := toCEL(obj, n.decl)
	var old any
	if oldObj != nil {
		old = toCEL(oldObj, n.decl)
	}
	act := &activation{self: self, oldSelf: old, hasOldSelf: oldObj != nil}
	var optAct *activation // for optionalOldSelf rules: made for the first one
	var errs field.ErrorList
	for i, c := range n.results {
		rule := v.schema.XValidations[i]
		if c.Error != nil {
			errs = append(errs, field.Invalid(p, typ, fmt.Sprintf("rule compile error: %v", c.Error)))
			continue
		}
		if c.Program == nil {
			continue
		}
		optional := rule.OptionalOldSelf != nil && *rule.OptionalOldSelf
		if c.UsesOldSelf && oldObj == nil && !optional {
			continue // a transition rule runs only on update
		}
		a := act
		if optional {
			if optAct == nil {
				optAct = optionalActivation(self, old, oldObj != nil)
			}
			a = optAct
		}
		result, details, err := c.Program.ContextEval(ctx, a)
		if details == nil || details.ActualCost() == nil {
			return append(errs, field.Invalid(p, typ, fmt.Sprintf("runtime cost could not be calculated for validation rule: %v, no further validation rules will be run", ruleErrorString(rule)))), -1
		}
		cost := *details.ActualCost()
		if cost > math.MaxInt64 || int64(cost) > budget {
			return append(errs, field.Invalid(p, typ, "validation failed due to running out of cost budget, no further validation rules will be run")), -1
		}
		budget -= int64(cost)
		if err != nil {
			switch msg := err.Error(); {
			case strings.HasPrefix(msg, "no such overload"):
				errs = append(errs, field.Invalid(p, typ, fmt.Sprintf("'%v': call arguments did not match a supported operator, function or macro signature for rule: %v", err, ruleErrorString(rule))))
			case strings.HasPrefix(msg, "operation cancelled: actual cost limit exceeded"):
				return append(errs, field.Invalid(p, typ, fmt.Sprintf("'%v': no further validation rules will be run due to call cost exceeds limit for rule: %v", err, ruleErrorString(rule)))), -1
			default:
				errs = append(errs, field.Invalid(p, typ, fmt.Sprintf("%v evaluating rule: %v", err, ruleErrorString(rule))))
			}
			continue
		}
		if result == types.True {
			continue
		}
		at := p
		if c.NormalizedFieldPath != "" {
			at = joinPath(p, c.NormalizedFieldPath)
		}
		detail := ""
		if c.MessageExpression != nil {
			msg, left, fatal, ok := evalMessageExpression(ctx, c.MessageExpression, rule.MessageExpression, a, budget)
			budget = left
			if fatal != "" {
				return append(errs, field.Invalid(at, typ, fatal)), -1
			}
			if ok {
				detail = msg
			}
		}
		if detail == "" {
			detail = ruleMessageOrDefault(rule)
		}
		var value any = obj
		if typ == "object" || typ == "array" {
			value = field.OmitValueType{}
		}
		errs = append(errs, errorForReason(at, value, detail, rule.Reason))
	}
	return errs, budget
}

const nilPath field.Path = "<nil>"

func orNil(p field.Path) field.Path {
	if p == "" {
		return nilPath
	}
	return p
}

// joinPath appends a normalized rule fieldPath ("spec.x", "[k]") to p.
func joinPath(p field.Path, rel string) field.Path {
	switch {
	case p == nilPath:
		return field.Path(rel)
	case strings.HasPrefix(rel, "["):
		return p + field.Path(rel)
	}
	return p + "." + field.Path(rel)
}

// evalMessageExpression returns the message, the remaining budget, and
// either a message for an error that stops validation, or ok false when
// the expression failed softly (the static message is used instead).
func evalMessageExpression(ctx context.Context, prog celgo.Program, src string, a *activation, budget int64) (msg string, left int64, fatal string, ok bool) {
	result, details, err := prog.ContextEval(ctx, a)
	if details == nil || details.ActualCost() == nil {
		return "", -1, fmt.Sprintf("runtime cost could not be calculated for messageExpression: %q", src), false
	}
	cost := *details.ActualCost()
	if cost > math.MaxInt64 || int64(cost) > budget {
		return "", -1, "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run", false
	}
	left = budget - int64(cost)
	if err != nil {
		if strings.HasPrefix(err.Error(), "operation cancelled: actual cost limit exceeded") {
			return "", -1, fmt.Sprintf("no further validation rules will be run due to call cost exceeds limit for messageExpression: %q", src), false
		}
		return "", left, "", false
	}
	s, isString := result.Value().(string)
	s = strings.TrimSpace(s)
	if !isString || s == "" || len(s) > maxEvaluatedMessageExpressionSizeBytes || strings.Contains(s, "\n") {
		return "", left, "", false
	}
	return s, left, "", true
}

func ruleMessageOrDefault(rule api.ValidationRule) string {
	if rule.Message == "" {
		return "failed rule: " + ruleErrorString(rule)
	}
	return strings.TrimSpace(rule.Message)
}

func ruleErrorString(rule api.ValidationRule) string {
	if rule.Message != "" {
		return strings.TrimSpace(rule.Message)
	}
	return strings.TrimSpace(rule.Rule)
}

func errorForReason(p field.Path, value any, detail string, reason *api.FieldValueErrorReason) *field.Error {
	if reason == nil {
		return field.Invalid(p, value, detail)
	}
	switch *reason {
	case api.FieldValueForbidden:
		return field.Forbidden(p, detail)
	case api.FieldValueRequired:
		return field.Required(p, detail)
	case api.FieldValueDuplicate:
		return field.Duplicate(p, value)
	}
	return field.Invalid(p, value, detail)
}
