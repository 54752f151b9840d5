package client

import (
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// WarningHandler receives each warning the server attaches to a reply
// (admission and deprecation warnings, fieldValidation=Warn findings).
// client-go: rest.WarningHandler.
type WarningHandler interface {
	HandleWarningHeader(code int, agent, text string)
}

// LogOnceWarningHandler logs every distinct warning once, at slog Warn.
// client-go's default handler logs every occurrence; deduplicating keeps a
// controller that repeats the same write from flooding its log.
type LogOnceWarningHandler struct {
	log  *slog.Logger
	mu   sync.Mutex
	seen map[string]bool
}

// NewLogOnceWarningHandler logs to l.
func NewLogOnceWarningHandler(l *slog.Logger) *LogOnceWarningHandler {
	return &LogOnceWarningHandler{log: l, seen: map[string]bool{}}
}

// HandleWarningHeader logs text unless it was logged before. Only code 299
// ("miscellaneous persistent warning") is what Kubernetes sends.
func (h *LogOnceWarningHandler) HandleWarningHeader(code int, _ string, text string) {
	if code != 299 || text == "" {
		return
	}
	h.mu.Lock()
	dup := h.seen[text]
	h.seen[text] = true
	h.mu.Unlock()
	if !dup {
		h.log.Warn("server warning", "warning", text)
	}
}

func (c *Client) handleWarnings(h http.Header) {
	for _, v := range h.Values("Warning") {
		if code, agent, text, ok := parseWarning(v); ok {
			c.warnings.HandleWarningHeader(code, agent, text)
		}
	}
}

// parseWarning reads one RFC 7234 warning value: 299 - "text" ["date"].
// Kubernetes puts exactly one warning in each header line.
func parseWarning(v string) (code int, agent, text string, ok bool) {
	v = strings.TrimSpace(v)
	codeStr, rest, found := strings.Cut(v, " ")
	if !found || len(codeStr) != 3 {
		return 0, "", "", false
	}
	code, err := strconv.Atoi(codeStr)
	if err != nil {
		return 0, "", "", false
	}
	agent, rest, found = strings.Cut(strings.TrimLeft(rest, " "), " ")
	if !found {
		return 0, "", "", false
	}
	rest = strings.TrimLeft(rest, " ")
	if !strings.HasPrefix(rest, `"`) {
		return 0, "", "", false
	}
	text, err = strconv.QuotedPrefix(rest)
	if err != nil {
		return 0, "", "", false
	}
	text, err = strconv.Unquote(text)
	if err != nil {
		return 0, "", "", false
	}
	return code, agent, text, true
}
