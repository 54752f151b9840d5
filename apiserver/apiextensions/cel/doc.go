// Package cel runs a CRD schema's x-kubernetes-validations: CEL
// expressions over `self` (the value of the node the rule sits on) and,
// in transition rules, `oldSelf` (the same node of the stored object),
// which must be true. It is what kubebuilder's
// +kubebuilder:validation:XValidation markers generate.
//
// How it works: for each node with rules, the node's structural schema
// becomes CEL declarations (decltype.go): objects are object types whose
// fields are the properties CEL can name (escaped: "x-y" is x__dash__y),
// maps and lists are CEL maps and lists, date-time, date, duration and
// byte strings are timestamps, durations and bytes, int-or-string is dyn;
// the root and embedded resources also have apiVersion, kind and
// metadata.name/generateName. The rules are type-checked against them
// and compiled once, when NewValidator builds the Validator for a CRD
// version; the apiserver keeps that Validator for as long as the version's
// schema is unchanged. At run time self is the unstructured value itself
// (a map[string]any read through typeProvider), copied with its numbers,
// times and bytes converted as declared (values.go).
//
// Cost: every call of a rule may cost at most PerCallLimit, all rules on
// one object together RuntimeCELCostBudget; CRD validation (ValidateRules)
// refuses a rule whose estimated cost — sized by the schema's maxLength,
// maxItems and maxProperties, or by what fits in the largest request —
// times how often it may run exceeds StaticEstimatedCostLimit, and a
// schema whose rules exceed StaticEstimatedCRDCostLimit together.
//
// The environment is cel-go's standard library (has(), the all/exists/
// exists_one/map/filter macros, matches() for RE2 regular expressions,
// size, timestamps and durations), optional types, cross-type numeric
// comparisons and the cel-go extensions Kubernetes also enables: strings
// (version 2: charAt, indexOf, lowerAscii, replace, split, substring,
// trim, upperAscii, join, format, quote, reverse), sets (contains,
// equivalent, intersects), lists (slice, flatten, distinct, sort, ...)
// and two-variable comprehensions.
//
// Kubernetes counterpart (v1.37.2): apiextensions-apiserver
// pkg/apiserver/schema/cel (compilation.go: Compile, compileRule,
// sizeEstimator, maxCardinality; validation.go: Validator, validate,
// validateExpressions, validateMap, validateArray, ValidFieldPath,
// fieldErrorForReason, evalMessageExpression; maplist.go), the CRD-time
// checks in pkg/apis/apiextensions/validation (validation.go,
// cel_validation.go), and k8s.io/apiserver/pkg/cel (types.go DeclType,
// common/schemas.go SchemaDeclType, escaping.go Escape, limits.go,
// environment/base.go).
//
// What we simplify: Kubernetes' own CEL libraries are absent — no
// quantity(), url(), ip(), cidr(), semver(), format.named(), authz, the
// Kubernetes list functions (isSorted, sum, min, max, indexOf) or regex
// find/findAll — only what cel-go itself offers; call costs are cel-go's
// defaults, not Kubernetes' per-function estimates, so estimates differ a
// little; no environment versioning (every feature is always on), no
// ratcheting (an unchanged invalid value is still refused), no
// compilation metrics; values are copied for CEL rather than wrapped
// lazily; rules inside allOf/anyOf/oneOf/not are not run (structural
// schemas forbid them there).
package cel
