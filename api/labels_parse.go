package api

import (
	"fmt"
	"strings"
)

// ParseSelector reads the string syntax of label selectors, the one kubectl
// -l and ?labelSelector= carry:
//
//	app=web, app==web, app!=web, tier in (a,b), tier notin (c), canary, !canary
//
// Clauses are separated by commas and ANDed; whitespace around tokens is
// ignored; "" selects everything. Errors name the offending token and its
// byte position. Kubernetes' parser (apimachinery/pkg/labels/selector.go,
// Parse) also accepts the numeric operators > and <; we do not.
func ParseSelector(s string) (Selector, error) {
	p := &selectorParser{lex: selectorLexer{s: s}}
	reqs, err := p.parse()
	if err != nil {
		return nil, fmt.Errorf("unable to parse requirement: %w", err)
	}
	return NewSelector(reqs...), nil
}

type tokenKind int

const (
	tokEOF tokenKind = iota
	tokIdent
	tokComma
	tokOpenParen
	tokCloseParen
	tokEquals
	tokDoubleEquals
	tokNotEquals
	tokNot
	tokIn
	tokNotIn
)

type token struct {
	kind tokenKind
	text string
	pos  int
}

func (t token) describe() string {
	if t.kind == tokEOF {
		return "end of input"
	}
	return fmt.Sprintf("'%s' at position %d", t.text, t.pos)
}

// selectorLexer splits the input into tokens. An identifier is any run of
// characters that are not whitespace or one of "=!(),".
type selectorLexer struct {
	s   string
	pos int
}

func isSelectorSpecial(c byte) bool { return strings.IndexByte("=!(),", c) >= 0 }
func isSelectorSpace(c byte) bool   { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (l *selectorLexer) next() token {
	for l.pos < len(l.s) && isSelectorSpace(l.s[l.pos]) {
		l.pos++
	}
	start := l.pos
	if l.pos >= len(l.s) {
		return token{kind: tokEOF, pos: start}
	}
	two := ""
	if l.pos+1 < len(l.s) {
		two = l.s[l.pos : l.pos+2]
	}
	switch {
	case two == "==":
		l.pos += 2
		return token{tokDoubleEquals, two, start}
	case two == "!=":
		l.pos += 2
		return token{tokNotEquals, two, start}
	}
	switch c := l.s[l.pos]; c {
	case '=':
		l.pos++
		return token{tokEquals, "=", start}
	case '!':
		l.pos++
		return token{tokNot, "!", start}
	case '(':
		l.pos++
		return token{tokOpenParen, "(", start}
	case ')':
		l.pos++
		return token{tokCloseParen, ")", start}
	case ',':
		l.pos++
		return token{tokComma, ",", start}
	}
	for l.pos < len(l.s) && !isSelectorSpace(l.s[l.pos]) && !isSelectorSpecial(l.s[l.pos]) {
		l.pos++
	}
	text := l.s[start:l.pos]
	switch text {
	case "in":
		return token{tokIn, text, start}
	case "notin":
		return token{tokNotIn, text, start}
	}
	return token{tokIdent, text, start}
}

// selectorParser is a recursive-descent parser with one token of lookahead.
type selectorParser struct {
	lex    selectorLexer
	peeked *token
}

func (p *selectorParser) peek() token {
	if p.peeked == nil {
		t := p.lex.next()
		p.peeked = &t
	}
	return *p.peeked
}

func (p *selectorParser) consume() token {
	t := p.peek()
	p.peeked = nil
	return t
}

// parse: selector := "" | requirement ("," requirement)*
func (p *selectorParser) parse() ([]Requirement, error) {
	var reqs []Requirement
	if p.peek().kind == tokEOF {
		return nil, nil
	}
	for {
		r, err := p.requirement()
		if err != nil {
			return nil, err
		}
		reqs = append(reqs, r)
		switch t := p.consume(); t.kind {
		case tokEOF:
			return reqs, nil
		case tokComma:
			if p.peek().kind == tokEOF {
				return nil, fmt.Errorf("found end of input after ',' at position %d, expected: a requirement", t.pos)
			}
		default:
			return nil, fmt.Errorf("found %s, expected: ',' or end of input", t.describe())
		}
	}
}

// requirement := "!" KEY | KEY | KEY ("="|"=="|"!=") VALUE | KEY ("in"|"notin") "(" values ")"
func (p *selectorParser) requirement() (Requirement, error) {
	t := p.consume()
	if t.kind == tokNot {
		key := p.consume()
		if key.kind != tokIdent {
			return Requirement{}, fmt.Errorf("found %s, expected: a label key after '!'", key.describe())
		}
		return p.build(key, SelectionDoesNotExist, nil)
	}
	if t.kind != tokIdent {
		return Requirement{}, fmt.Errorf("found %s, expected: '!' or a label key", t.describe())
	}
	key := t
	switch op := p.peek(); op.kind {
	case tokEOF, tokComma:
		return p.build(key, SelectionExists, nil)
	case tokEquals, tokDoubleEquals, tokNotEquals:
		p.consume()
		value := ""
		switch v := p.peek(); v.kind {
		case tokIdent:
			value = p.consume().text
		case tokEOF, tokComma:
			// "a=" selects the empty value.
		default:
			return Requirement{}, fmt.Errorf("found %s, expected: a label value after '%s'", v.describe(), op.text)
		}
		return p.build(key, SelectionOperator(op.text), []string{value})
	case tokIn, tokNotIn:
		p.consume()
		values, err := p.valueList()
		if err != nil {
			return Requirement{}, err
		}
		return p.build(key, SelectionOperator(op.text), values)
	default:
		return Requirement{}, fmt.Errorf("found %s, expected: '=', '==', '!=', 'in', 'notin', ',' or end of input", op.describe())
	}
}

// valueList := "(" [VALUE] ("," [VALUE])* ")"; an omitted value is "".
func (p *selectorParser) valueList() ([]string, error) {
	if t := p.consume(); t.kind != tokOpenParen {
		return nil, fmt.Errorf("found %s, expected: '('", t.describe())
	}
	var values []string
	expectValue := true
	for {
		t := p.consume()
		switch {
		case t.kind == tokIdent && expectValue:
			values = append(values, t.text)
			expectValue = false
		case t.kind == tokComma:
			if expectValue {
				values = append(values, "")
			}
			expectValue = true
		case t.kind == tokCloseParen:
			if expectValue && len(values) > 0 {
				values = append(values, "")
			}
			return values, nil
		default:
			return nil, fmt.Errorf("found %s, expected: a label value, ',' or ')'", t.describe())
		}
	}
}

func (p *selectorParser) build(key token, op SelectionOperator, values []string) (Requirement, error) {
	r, err := NewRequirement(key.text, op, values)
	if err != nil {
		return Requirement{}, fmt.Errorf("requirement at position %d: %w", key.pos, err)
	}
	return r, nil
}
