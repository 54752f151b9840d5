package cel

import (
	"fmt"
	"math"
	"sort"

	"kubeloop/apiserver/apiextensions/field"
	"kubeloop/apiserver/apiextensions/schema"
)

// ValidateRules is what CRD validation asks of the x-kubernetes-validations
// of a version's (structural, otherwise valid) schema s at path p: every
// rule and messageExpression compiles to the right type; none is
// estimated to cost more than StaticEstimatedCostLimit, counting how often
// it may run (the product of maxItems/maxProperties above it, or what the
// largest request allows); all together not more than
// StaticEstimatedCRDCostLimit; oldSelf is only used where an old value can
// be found (not below a list that is not of type map); optionalOldSelf
// only on rules that use oldSelf. Kubernetes: apiextensions'
// validation.go (ValidateCustomResourceDefinitionOpenAPISchema's CEL part,
// getExpressionCost, getCostErrorMessage) and cel_validation.go
// (CELSchemaContext, TotalCost).
func (c *Compiler) ValidateRules(p field.Path, s *schema.Structural) field.ErrorList {
	total := &totalCost{}
	one := uint64(1)
	errs := c.checkNode(p, s, true, &one, "", total)
	if total.total > StaticEstimatedCRDCostLimit {
		for _, e := range total.mostExpensive {
			errs = append(errs, field.Forbidden(e.path, "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"))
		}
		errs = append(errs, field.Forbidden(p, costErrorMessage("x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema", total.total, StaticEstimatedCRDCostLimit)))
	}
	return errs
}

// checkNode checks s's rules and walks on. cardinality is how often s may
// occur in one object (nil: unbounded); uncorrelatable is the path of the
// highest list above s whose elements have no identity ("" if none).
func (c *Compiler) checkNode(p field.Path, s *schema.Structural, isRoot bool, cardinality *uint64, uncorrelatable field.Path, total *totalCost) field.ErrorList {
	if s == nil {
		return nil
	}
	var errs field.ErrorList
	if len(s.XValidations) > 0 {
		errs = append(errs, c.checkRules(p, s, isRoot, cardinality, uncorrelatable, total)...)
	}
	childCardinality := multiplyCardinality(cardinality, maxElements(s))
	for _, k := range sortedKeys(s.Properties) {
		prop := s.Properties[k]
		errs = append(errs, c.checkNode(p.Child("properties").Key(k), &prop, false, childCardinality, uncorrelatable, total)...)
	}
	if s.AdditionalProperties != nil {
		errs = append(errs, c.checkNode(p.Child("additionalProperties"), s.AdditionalProperties.Structural, false, childCardinality, uncorrelatable, total)...)
	}
	if s.Items != nil {
		itemsUncorrelatable := uncorrelatable
		if itemsUncorrelatable == "" && (s.XListType == nil || *s.XListType != "map") {
			itemsUncorrelatable = p
		}
		errs = append(errs, c.checkNode(p.Child("items"), s.Items, false, childCardinality, itemsUncorrelatable, total)...)
	}
	return errs
}

func (c *Compiler) checkRules(p field.Path, s *schema.Structural, isRoot bool, cardinality *uint64, uncorrelatable field.Path, total *totalCost) field.ErrorList {
	vp := p.Child("x-kubernetes-validations")
	n := c.compileNode(s, isRoot)
	if n.err != nil {
		return field.ErrorList{field.InternalError(vp, fmt.Errorf("internal error: failed to construct type information for x-kubernetes-validations rules: %s", n.err))}
	}
	var errs field.ErrorList
	for i, r := range n.results {
		rule := s.XValidations[i]
		rp := vp.Index(i).Child("rule")
		cost := r.MaxCost
		if cardinality != nil {
			cost = multiplyWithOverflowGuard(cost, *cardinality)
		} else {
			cost = multiplyWithOverflowGuard(cost, n.maxCardinality)
		}
		if cost > StaticEstimatedCostLimit {
			errs = append(errs, field.Forbidden(rp, costErrorMessage("estimated rule cost", cost, StaticEstimatedCostLimit)))
		}
		total.observe(rp, cost)
		if r.Error != nil {
			if r.Error.Required {
				errs = append(errs, field.Required(rp, r.Error.Detail))
			} else {
				errs = append(errs, field.Invalid(rp, rule, r.Error.Detail))
			}
		}
		mp := vp.Index(i).Child("messageExpression")
		if r.MessageExpressionError != nil {
			errs = append(errs, field.Invalid(mp, rule, r.MessageExpressionError.Detail))
		} else if r.MessageExpression != nil {
			if r.MessageExpressionMaxCost > StaticEstimatedCostLimit {
				errs = append(errs, field.Forbidden(mp, costErrorMessage("estimated messageExpression cost", r.MessageExpressionMaxCost, StaticEstimatedCostLimit)))
			}
			total.observe(mp, r.MessageExpressionMaxCost)
		}
		switch {
		case r.UsesOldSelf && uncorrelatable != "":
			errs = append(errs, field.Invalid(rp, rule.Rule, fmt.Sprintf("oldSelf cannot be used on the uncorrelatable portion of the schema within %v", uncorrelatable)))
		case !r.UsesOldSelf && r.Error == nil && rule.OptionalOldSelf != nil:
			errs = append(errs, field.Invalid(vp.Index(i).Child("optionalOldSelf"), *rule.OptionalOldSelf, "may not be set if oldSelf is not used in rule"))
		}
	}
	return errs
}

// maxElements is how many children of s one value of s holds at most
// (nil: unbounded): a list's maxItems, a map's maxProperties, one for an
// object with fixed properties or a scalar.
func maxElements(s *schema.Structural) *uint64 {
	var bound *int64
	switch s.Type {
	case "object":
		if s.AdditionalProperties == nil {
			return ptr(1)
		}
		if s.ValueValidation != nil {
			bound = s.ValueValidation.MaxProperties
		}
	case "array":
		if s.ValueValidation != nil {
			bound = s.ValueValidation.MaxItems
		}
	default:
		return ptr(1)
	}
	if bound == nil {
		return nil
	}
	return ptr(uint64(zeroIfNegative(*bound)))
}

func ptr(v uint64) *uint64 { return &v }

func multiplyCardinality(c, m *uint64) *uint64 {
	if c == nil || m == nil {
		return nil
	}
	return ptr(multiplyWithOverflowGuard(*c, *m))
}

func multiplyWithOverflowGuard(base, factor uint64) uint64 {
	if base == 0 {
		return 0
	}
	if math.MaxUint64/base < factor {
		return math.MaxUint64
	}
	return base * factor
}

// costErrorMessage says by how much a cost exceeds its limit, in
// Kubernetes' words.
func costErrorMessage(what string, cost, limit uint64) string {
	factor := float64(cost) / float64(limit)
	var f string
	switch {
	case factor > 100:
		f = "more than 100x"
	case factor < 1.5:
		f = fmt.Sprintf("%fx", factor)
	default:
		f = fmt.Sprintf("%.1fx", factor)
	}
	return fmt.Sprintf("%s exceeds budget by factor of %s (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)", what, f)
}

// totalCost adds up the estimated costs of a schema's rules and keeps the
// four most expensive (of those above 1% of the CRD limit) to name them.
type totalCost struct {
	total         uint64
	mostExpensive []ruleCost
}

type ruleCost struct {
	path field.Path
	cost uint64
}

func (t *totalCost) observe(p field.Path, cost uint64) {
	if math.MaxUint64-t.total < cost {
		t.total = math.MaxUint64
	} else {
		t.total += cost
	}
	if cost < StaticEstimatedCRDCostLimit/100 {
		return
	}
	t.mostExpensive = append(t.mostExpensive, ruleCost{p, cost})
	sort.SliceStable(t.mostExpensive, func(i, j int) bool { return t.mostExpensive[i].cost > t.mostExpensive[j].cost })
	if len(t.mostExpensive) > 4 {
		t.mostExpensive = t.mostExpensive[:4]
	}
}
