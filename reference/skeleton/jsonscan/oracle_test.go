package jsonscan

import (
	"bytes"
	"encoding/json"
	"io"
)

// tokenScanner is the first Scan, on encoding/json's Decoder.Token, kept
// as the oracle the byte scanner is compared with (TestScanAgreesWith
// TheTokenScanner, FuzzScan): the same codes for every document.
type tokenScanner struct {
	dec    *json.Decoder
	b      Bounds
	values int
}

func tokenScan(raw []byte, b Bounds) *Error {
	s := &tokenScanner{dec: json.NewDecoder(bytes.NewReader(raw)), b: b.withDefaults()}
	s.dec.UseNumber()
	if err := s.value(0); err != nil {
		return err
	}
	if _, err := s.dec.Token(); err != io.EOF {
		return refuse(CodeInvalidJSON, "the body holds more than one JSON value")
	}
	return nil
}

// token reads the next token and counts it against the bounds.
func (s *tokenScanner) token() (json.Token, *Error) {
	tok, err := s.dec.Token()
	if err != nil {
		return nil, refuse(CodeInvalidJSON, "the body is not valid JSON")
	}
	if s.values++; s.values > s.b.MaxValues {
		return nil, refuse(CodeTooMany, "the body holds more than %d values", s.b.MaxValues)
	}
	if str, ok := tok.(string); ok && len(str) > s.b.MaxString {
		return nil, refuse(CodeTooLong, "a string of the body is longer than %d bytes", s.b.MaxString)
	}
	return tok, nil
}

func (s *tokenScanner) value(depth int) *Error {
	if depth > s.b.MaxDepth {
		return refuse(CodeTooDeep, "the body nests deeper than %d levels", s.b.MaxDepth)
	}
	tok, err := s.token()
	if err != nil {
		return err
	}
	delim, ok := tok.(json.Delim)
	switch {
	case !ok:
		return nil
	case delim == '{':
		return s.object(depth)
	case delim == '[':
		return s.array(depth)
	}
	return refuse(CodeInvalidJSON, "the body is not valid JSON")
}

func (s *tokenScanner) array(depth int) *Error {
	for n := 0; s.dec.More(); n++ {
		if n == s.b.MaxItems {
			return refuse(CodeTooManyItems, "an array of the body holds more than %d items", s.b.MaxItems)
		}
		if err := s.value(depth + 1); err != nil {
			return err
		}
	}
	return s.end()
}

func (s *tokenScanner) object(depth int) *Error {
	seen := map[string]bool{}
	for s.dec.More() {
		if len(seen) == s.b.MaxItems {
			return refuse(CodeTooManyItems, "an object of the body holds more than %d members", s.b.MaxItems)
		}
		tok, err := s.token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		if seen[key] {
			return refuse(CodeDuplicateKey, "key %q appears twice in one object", key)
		}
		seen[key] = true
		if err := s.value(depth + 1); err != nil {
			return err
		}
	}
	return s.end()
}

// end reads the closing delimiter of an array or object.
func (s *tokenScanner) end() *Error {
	if _, err := s.dec.Token(); err != nil {
		return refuse(CodeInvalidJSON, "the body is not valid JSON")
	}
	return nil
}
