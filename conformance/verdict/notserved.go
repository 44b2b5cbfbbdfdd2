package verdict

import (
	"fmt"
	"strings"
)

// notServedPrefix starts the reason of every not-served skip, so reports
// can find them and name the route once (NotServedRoute).
const notServedPrefix = "unchecked: the target does not serve "

// NotServed is the skip of a check that needs a route the target answered
// 404, 405 or 501 on: a missing route is not a refusal, so the check is
// neither passed nor failed, only unchecked, and the reason names the
// route (route is "METHOD /path", the documented template where there is
// one) and what the target answered.
func NotServed(route string, status int) error {
	return &Skipped{Reason: fmt.Sprintf("%s%s (it answered %d)", notServedPrefix, route, status)}
}

// NotServedRoute returns the route a not-served skip's message names, so a
// report can fold every check a missing route left unchecked into one line.
func NotServedRoute(message string) (string, bool) {
	i := strings.Index(message, notServedPrefix)
	if i < 0 {
		return "", false
	}
	rest := message[i+len(notServedPrefix):]
	route, _, ok := strings.Cut(rest, " (it answered ")
	return route, ok
}
