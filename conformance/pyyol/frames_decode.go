package pyyol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// decodeJSON decodes raw once for the schema validator (numbers kept as
// json.Number) and refuses what encoding/json could not decode into an
// any either: a number beyond float64's range, which no Go client can
// read. It accepts exactly what json.Unmarshal does, so a frame is parsed
// once where it used to be parsed three times.
func decodeJSON(raw []byte) (any, error) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	return v, inFloatRange(v)
}

// inFloatRange reports the first number of v that float64 cannot hold, in
// encoding/json's words.
func inFloatRange(v any) error {
	switch v := v.(type) {
	case json.Number:
		if _, err := strconv.ParseFloat(string(v), 64); err != nil {
			return fmt.Errorf("json: cannot unmarshal number %s into Go value of type float64", v)
		}
	case []any:
		for _, e := range v {
			if err := inFloatRange(e); err != nil {
				return err
			}
		}
	case map[string]any:
		for _, e := range v {
			if err := inFloatRange(e); err != nil {
				return err
			}
		}
	}
	return nil
}
