package api

import (
	"fmt"
	"slices"
	"strings"
)

// ParseSelector reads the string syntax of label selectors, the one kubectl
// -l and ?labelSelector= carry:
//
//	app=web, app==web, app!=web, tier in (a,b), tier notin (c), canary, !canary, replicas>2
//
// Clauses are separated by commas and ANDed; whitespace around tokens is
// ignored; "" selects everything. "in" and "notin" are keywords only where
// an operator is expected: "mv=in", "in in (notin)" and "!in" are ordinary
// requirements. The error messages are Kubernetes' word for word, because
// the apiserver returns them to the client as they are.
//
// Kubernetes: apimachinery/pkg/labels/selector.go, Parse (Parser.parse and
// friends).
func ParseSelector(s string) (Selector, error) {
	p := &selectorParser{lex: selectorLexer{s: s}}
	reqs, err := p.parse()
	if err != nil {
		return nil, err
	}
	return NewSelector(reqs...), nil
}

// parserContext says how the parser reads the words "in" and "notin": as
// operators right after a key, as plain identifiers everywhere else.
type parserContext int

const (
	keyAndOperator parserContext = iota
	values
)

// selectorParser is a recursive-descent parser with one token of lookahead.
type selectorParser struct {
	lex    selectorLexer
	peeked *token
}

// asIn demotes the keywords to identifiers outside keyAndOperator.
func asIn(t token, ctx parserContext) token {
	if ctx == values && (t.kind == tokIn || t.kind == tokNotIn) {
		t.kind = tokIdent
	}
	return t
}

func (p *selectorParser) peek(ctx parserContext) token {
	if p.peeked == nil {
		t := p.lex.next()
		p.peeked = &t
	}
	return asIn(*p.peeked, ctx)
}

func (p *selectorParser) consume(ctx parserContext) token {
	t := p.peek(ctx)
	p.peeked = nil
	return t
}

// requirementError is how Kubernetes prefixes every failure inside one
// requirement; failures between requirements (a stray token after one, a
// dangling comma) carry no prefix.
func requirementError(format string, args ...any) error {
	return fmt.Errorf("unable to parse requirement: "+format, args...)
}

// parse: selector := "" | requirement ("," requirement)*
func (p *selectorParser) parse() ([]Requirement, error) {
	var reqs []Requirement
	for {
		switch t := p.peek(values); t.kind {
		case tokEOF:
			return reqs, nil
		case tokIdent, tokNot:
		default:
			return nil, fmt.Errorf("found '%s', expected: !, identifier, or 'end of string'", t.text)
		}
		r, err := p.requirement()
		if err != nil {
			return nil, err
		}
		reqs = append(reqs, r)
		switch t := p.consume(values); t.kind {
		case tokEOF:
			return reqs, nil
		case tokComma:
			if next := p.peek(values); next.kind != tokIdent && next.kind != tokNot {
				return nil, fmt.Errorf("found '%s', expected: identifier after ','", next.text)
			}
		default:
			return nil, fmt.Errorf("found '%s', expected: ',' or 'end of string'", t.text)
		}
	}
}

// requirement := "!" KEY | KEY | KEY OP VALUE | KEY ("in"|"notin") "(" values ")"
// where OP is one of = == != > <.
func (p *selectorParser) requirement() (Requirement, error) {
	t := p.consume(values)
	negated := t.kind == tokNot
	if negated {
		t = p.consume(values)
	}
	if t.kind != tokIdent {
		return Requirement{}, requirementError("found '%s', expected: identifier", t.text)
	}
	key := t.text
	if errs := IsQualifiedName(key); len(errs) > 0 {
		// Kubernetes checks the key against a nil field path, which prints
		// as "<nil>"; the message keeps it so clients see the same text.
		return Requirement{}, requirementError("%s", invalidValue("<nil>", key, strings.Join(errs, "; ")))
	}
	if negated {
		// "!a" takes no operator; whatever follows is the caller's to judge.
		return NewRequirement(key, SelectionDoesNotExist, nil)
	}
	if next := p.peek(values); next.kind == tokEOF || next.kind == tokComma {
		return NewRequirement(key, SelectionExists, nil)
	}
	var op SelectionOperator
	switch t := p.consume(keyAndOperator); t.kind {
	case tokIn:
		op = SelectionIn
	case tokNotIn:
		op = SelectionNotIn
	case tokEquals:
		op = SelectionEquals
	case tokDoubleEquals:
		op = SelectionDoubleEquals
	case tokNotEquals:
		op = SelectionNotEquals
	case tokGreaterThan:
		op = SelectionGreaterThan
	case tokLessThan:
		op = SelectionLessThan
	default:
		return Requirement{}, requirementError("found '%s', expected: in, notin, =, ==, !=, gt, lt", t.text)
	}
	var vals []string
	var err error
	if op == SelectionIn || op == SelectionNotIn {
		vals, err = p.valueSet()
	} else {
		vals, err = p.exactValue()
	}
	if err != nil {
		return Requirement{}, err
	}
	// Kubernetes collects the values into a set and validates its sorted
	// list, so "values[i]" in a message counts in sorted order.
	r, err := NewRequirement(key, op, slices.Compact(slices.Sorted(slices.Values(vals))))
	if err != nil {
		return Requirement{}, requirementError("%w", err)
	}
	return r, nil
}

// exactValue := [VALUE]; "a=" and "a=,b" select the empty value.
func (p *selectorParser) exactValue() ([]string, error) {
	if next := p.peek(values); next.kind == tokEOF || next.kind == tokComma {
		return []string{""}, nil
	}
	t := p.consume(values)
	if t.kind != tokIdent {
		return nil, requirementError("found '%s', expected: identifier", t.text)
	}
	return []string{t.text}, nil
}

// valueSet := "(" [VALUE] ("," [VALUE])* ")". An omitted value is "", so
// "()" and "(,a)" both contain the empty value.
func (p *selectorParser) valueSet() ([]string, error) {
	if t := p.consume(values); t.kind != tokOpenParen {
		// Kubernetes' message has no comma before "expected" here.
		return nil, requirementError("found '%s' expected: '('", t.text)
	}
	switch t := p.peek(values); t.kind {
	case tokCloseParen:
		p.consume(values)
		return []string{""}, nil
	case tokIdent, tokComma:
	default:
		return nil, requirementError("found '%s', expected: ',', ')' or identifier", t.text)
	}
	var vals []string
	for {
		switch t := p.consume(values); t.kind {
		case tokIdent:
			vals = append(vals, t.text)
			switch next := p.peek(values); next.kind {
			case tokCloseParen:
				p.consume(values)
				return vals, nil
			case tokComma:
			default:
				return nil, requirementError("found '%s', expected: ',' or ')'", next.text)
			}
		case tokComma:
			// A comma first, last or doubled stands beside an empty value.
			next := p.peek(values)
			if len(vals) == 0 || next.kind == tokComma || next.kind == tokCloseParen {
				vals = append(vals, "")
			}
			if next.kind == tokCloseParen {
				p.consume(values)
				return vals, nil
			}
		default:
			return nil, requirementError("found '%s', expected: ',', or identifier", t.text)
		}
	}
}
