package api

// The label-selector lexer. It turns "tier in (a,b),!canary" into tokens
// and knows nothing of grammar: whether "in" is an operator or a plain
// word is the parser's decision, taken from where the word stands.
// Kubernetes: apimachinery/pkg/labels/selector.go, Lexer.Lex.

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
	tokGreaterThan
	tokLessThan
	tokIn
	tokNotIn
)

// token is one lexeme. text is what Kubernetes' error messages quote: the
// characters of the token, "" at the end of the input.
type token struct {
	kind tokenKind
	text string
}

// selectorLexer hands out tokens one by one. An identifier is any run of
// bytes that are neither whitespace nor one of the operator characters
// "=!(),<>"; whitespace only separates.
//
// Kubernetes' lexer reads a NUL byte as the end of the input; here it is an
// ordinary byte, which no valid key or value contains.
type selectorLexer struct {
	s   string
	pos int
}

func isSelectorSpecial(c byte) bool {
	switch c {
	case '=', '!', '(', ')', ',', '<', '>':
		return true
	}
	return false
}

func isSelectorSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// singleCharToken names the operators one byte long. "==" and "!=" are
// the only two-byte ones, so "===" lexes as "==" then "=", and "=!=" as
// "=" then "!=", exactly as Kubernetes' longest-match scan does.
func singleCharToken(c byte) tokenKind {
	switch c {
	case '=':
		return tokEquals
	case '!':
		return tokNot
	case '(':
		return tokOpenParen
	case ')':
		return tokCloseParen
	case ',':
		return tokComma
	case '<':
		return tokLessThan
	}
	return tokGreaterThan
}

func (l *selectorLexer) next() token {
	for l.pos < len(l.s) && isSelectorSpace(l.s[l.pos]) {
		l.pos++
	}
	if l.pos >= len(l.s) {
		return token{kind: tokEOF}
	}
	start := l.pos
	if c := l.s[start]; isSelectorSpecial(c) {
		if start+1 < len(l.s) && l.s[start+1] == '=' && (c == '=' || c == '!') {
			l.pos += 2
			if c == '=' {
				return token{tokDoubleEquals, "=="}
			}
			return token{tokNotEquals, "!="}
		}
		l.pos++
		return token{singleCharToken(c), l.s[start:l.pos]}
	}
	for l.pos < len(l.s) && !isSelectorSpace(l.s[l.pos]) && !isSelectorSpecial(l.s[l.pos]) {
		l.pos++
	}
	text := l.s[start:l.pos]
	switch text {
	case "in":
		return token{tokIn, text}
	case "notin":
		return token{tokNotIn, text}
	}
	return token{tokIdent, text}
}
