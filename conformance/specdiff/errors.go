package specdiff

import (
	"errors"
	"fmt"
)

var errNotJSON = errors.New("not valid JSON")

// FormatError says that a contract version is not in the format its
// catalogue's source is (JSON or a markdown corpus).
type FormatError struct {
	Which string
	Err   error
}

func (e *FormatError) Error() string { return fmt.Sprintf("%s: %v", e.Which, e.Err) }

func (e *FormatError) Unwrap() error { return e.Err }
