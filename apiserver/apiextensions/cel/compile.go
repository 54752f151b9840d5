package cel

import (
	"fmt"
	"strings"
	"sync"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/ext"
	"github.com/google/cel-go/interpreter"

	"kubeloop/api"
	"kubeloop/apiserver/apiextensions/schema"
)

// The limits Kubernetes puts on CEL (k8s.io/apiserver/pkg/apis/cel/config.go
// and apiextensions' validation.go, v1.37.2).
const (
	// PerCallLimit is the most one evaluation of one rule may cost.
	PerCallLimit = 1000000
	// RuntimeCELCostBudget is what all the rules of one object may cost
	// together on one write.
	RuntimeCELCostBudget = 10000000
	// StaticEstimatedCostLimit is the most one rule may be estimated to
	// cost, times how often it may run, for its CRD to be accepted.
	StaticEstimatedCostLimit = 10000000
	// StaticEstimatedCRDCostLimit is the same for all rules of a schema.
	StaticEstimatedCRDCostLimit = 100000000
	// checkFrequency is how many comprehension steps pass between checks
	// of the context (cancellation and cost).
	checkFrequency = 100
	// maxEvaluatedMessageExpressionSizeBytes bounds a messageExpression's
	// result.
	maxEvaluatedMessageExpressionSizeBytes = 5 * 1024
)

// The variable names of a rule.
const (
	ScopedVarName    = "self"
	OldScopedVarName = "oldSelf"
)

// Compiler holds the base CEL environment every rule compiles in (the
// standard library plus the extensions Kubernetes enables that cel-go
// offers), built once because building one costs milliseconds. It never
// changes after NewCompiler, so one Compiler serves every schema and
// goroutine: each node's rules compile in an extension of it of their own.
type Compiler struct {
	base *celgo.Env
}

// DefaultCompiler is the process's one Compiler, built on first use. Like
// encoding/json's cache of struct fields, it holds only immutable facts,
// so sharing it is safe.
var DefaultCompiler = sync.OnceValues(NewCompiler)

// NewCompiler builds the base environment.
func NewCompiler() (*Compiler, error) {
	env, err := celgo.NewEnv(
		celgo.HomogeneousAggregateLiterals(),
		celgo.EagerlyValidateDeclarations(true),
		celgo.DefaultUTCTimeZone(true),
		celgo.CrossTypeNumericComparisons(true),
		celgo.OptionalTypes(),
		celgo.CostEstimatorOptions(checker.PresenceTestHasCost(false)),
		ext.Strings(ext.StringsVersion(2)),
		ext.Sets(),
		ext.Lists(),
		ext.TwoVarComprehensions(),
	)
	if err != nil {
		return nil, fmt.Errorf("building the CEL environment: %w", err)
	}
	return &Compiler{base: env}, nil
}

// selfTypeName names the type of self. Every node's rules compile in an
// environment of their own, so one name serves all (Kubernetes makes it
// unique per compilation because its environments are shared).
const selfTypeName = "selfType"

// CompilationResult is one rule, compiled: its program, what it is
// estimated to cost at most per call, and whether it reads oldSelf
// (which makes it a transition rule, run only on update). Error says why
// it did not compile; MessageExpressionError the same for its
// messageExpression.
type CompilationResult struct {
	Program                  celgo.Program
	MaxCost                  uint64
	UsesOldSelf              bool
	MessageExpression        celgo.Program
	MessageExpressionMaxCost uint64
	// NormalizedFieldPath is the rule's fieldPath as a field path below
	// the node ("spec.x", "labels[a.b]"), when it is valid.
	NormalizedFieldPath string

	Error                  *Error
	MessageExpressionError *Error
}

// Error is a rule that does not compile. Required means a missing part;
// otherwise the rule is invalid.
type Error struct {
	Required bool
	Detail   string
}

func (e *Error) Error() string { return e.Detail }

// compiledNode is the rules of one schema node, compiled together: they
// share the node's declaration of self.
type compiledNode struct {
	decl    *declType
	results []CompilationResult
	// maxCardinality is how often the node's rules may run in one object
	// when nothing above bounds it: the largest request over the node's
	// smallest serialized value.
	maxCardinality uint64
	// err is set when the node cannot be declared to CEL at all.
	err error
}

// compileNode compiles the rules of s, a node whose CEL view is decl
// (nil when CEL cannot see the node).
func (c *Compiler) compileNode(s *schema.Structural, isResourceRoot bool) *compiledNode {
	if len(s.XValidations) == 0 {
		return nil
	}
	b := &declBuilder{objects: map[string]*declType{}}
	decl := b.build(s, isResourceRoot || s.XEmbeddedResource, selfTypeName)
	n := &compiledNode{decl: decl}
	if decl == nil {
		n.err = fmt.Errorf("failed to convert to declType for CEL validation rules")
		return n
	}
	n.maxCardinality = uint64(maxRequestSizeBytes / (decl.minSerializedSize + 1))
	provider := &typeProvider{base: c.base.CELTypeProvider(), objects: b.objects}
	env, err := c.base.Extend(
		celgo.CustomTypeProvider(provider),
		celgo.Variable(ScopedVarName, decl.cel),
		celgo.Variable(OldScopedVarName, decl.cel),
	)
	if err != nil {
		n.err = err
		return n
	}
	optEnv, err := c.base.Extend(
		celgo.CustomTypeProvider(provider),
		celgo.Variable(ScopedVarName, decl.cel),
		celgo.Variable(OldScopedVarName, types.NewOptionalType(decl.cel)),
	)
	if err != nil {
		n.err = err
		return n
	}
	est := &costEstimator{root: decl}
	for _, rule := range s.XValidations {
		e := env
		if rule.OptionalOldSelf != nil && *rule.OptionalOldSelf {
			e = optEnv
		}
		n.results = append(n.results, compileRule(e, est, rule, s))
	}
	return n
}

func compileRule(env *celgo.Env, est *costEstimator, rule api.ValidationRule, s *schema.Structural) CompilationResult {
	var r CompilationResult
	if strings.TrimSpace(rule.Rule) == "" {
		return r
	}
	ast, issues := env.Compile(rule.Rule)
	if issues != nil && issues.Err() != nil {
		r.Error = &Error{Detail: "compilation failed: " + issues.String()}
		return r
	}
	if ast.OutputType() != celgo.BoolType {
		r.Error = &Error{Detail: "cel expression must evaluate to a bool"}
		return r
	}
	for _, ref := range ast.NativeRep().ReferenceMap() {
		if ref.Name == OldScopedVarName {
			r.UsesOldSelf = true
			break
		}
	}
	prog, err := env.Program(ast,
		celgo.CostLimit(PerCallLimit),
		celgo.CostTracking(est),
		celgo.CostTrackerOptions(interpreter.PresenceTestHasCost(false)),
		celgo.InterruptCheckFrequency(checkFrequency),
	)
	if err != nil {
		r.Error = &Error{Detail: "program instantiation failed: " + err.Error()}
		return r
	}
	cost, err := env.EstimateCost(ast, est)
	if err != nil {
		r.Error = &Error{Detail: "cost estimation failed: " + err.Error()}
		return r
	}
	r.Program, r.MaxCost = prog, cost.Max
	if rule.MessageExpression != "" {
		mast, issues := env.Compile(rule.MessageExpression)
		switch {
		case issues != nil && issues.Err() != nil:
			r.MessageExpressionError = &Error{Detail: "messageExpression compilation failed: " + issues.String()}
		case mast.OutputType() != celgo.StringType:
			r.MessageExpressionError = &Error{Detail: "messageExpression must evaluate to a string"}
		default:
			mprog, err := env.Program(mast, celgo.CostLimit(PerCallLimit), celgo.CostTracking(est),
				celgo.CostTrackerOptions(interpreter.PresenceTestHasCost(false)), celgo.InterruptCheckFrequency(checkFrequency))
			if err != nil {
				r.MessageExpressionError = &Error{Detail: "messageExpression instantiation failed: " + err.Error()}
				break
			}
			mcost, err := env.EstimateCost(mast, est)
			if err != nil {
				r.MessageExpressionError = &Error{Detail: "cost estimation failed for messageExpression: " + err.Error()}
				break
			}
			r.MessageExpression, r.MessageExpressionMaxCost = mprog, mcost.Max
		}
	}
	if rule.FieldPath != "" {
		if p, _, err := ValidFieldPath(rule.FieldPath, s); err == nil {
			r.NormalizedFieldPath = p
		}
	}
	return r
}

// costEstimator gives the checker the sizes a schema bounds — the
// maxLength, maxItems and maxProperties of the value an expression
// reaches from self or oldSelf, or what the largest request leaves room
// for — and leaves call costs to CEL's defaults. Kubernetes:
// apiextensions' cel/compilation.go (sizeEstimator) over
// k8s.io/apiserver/pkg/cel/library/cost.go.
type costEstimator struct {
	root *declType
}

func (e *costEstimator) EstimateSize(node checker.AstNode) *checker.SizeEstimate {
	path := node.Path()
	if len(path) == 0 || (path[0] != ScopedVarName && path[0] != OldScopedVarName) {
		return nil
	}
	cur := e.root
	for _, name := range path[1:] {
		switch name {
		case "@items", "@values":
			cur = cur.elem
		case "@keys":
			return nil
		default:
			f, ok := cur.fields[name]
			if !ok {
				return nil
			}
			cur = f.typ
		}
		if cur == nil {
			return nil
		}
	}
	return &checker.SizeEstimate{Min: 0, Max: uint64(cur.maxElements)}
}

func (e *costEstimator) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	return nil
}

// CallCost is the run-time side: CEL's own cost of each call.
func (e *costEstimator) CallCost(function, overloadID string, args []ref.Val, result ref.Val) *uint64 {
	return nil
}
