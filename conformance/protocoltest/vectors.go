package protocoltest

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/vectors"
)

// checkVectors requires the reference to reproduce every known-answer
// vector, and the check to notice a vector whose expected value was
// tampered with (one per file), so a calculator that agrees with anything
// cannot pass.
func checkVectors(group []*suite.Protocol) error {
	p := calculator(group)
	files, err := p.Vectors()
	if err != nil {
		return fmt.Errorf("vectors: %w", err)
	}
	if len(files) == 0 {
		return nil
	}
	if p.Vector == nil {
		return fmt.Errorf("vectors/%s holds vectors but no protocol of the folder has a Vector calculator", p.DataFolder())
	}
	var errs []error
	bad, _ := vectors.Check(files, p.Vector)
	for _, m := range bad {
		errs = append(errs, fmt.Errorf("vector %s %s not reproduced: %s", m.File, m.ID, m.Diff))
	}
	if len(bad) == 0 {
		errs = append(errs, checkTamperDetected(p, files))
	}
	return errors.Join(errs...)
}

// calculator is the first protocol of a folder with a Vector calculator
// (the folder's vectors are its), or the first protocol when none has one.
func calculator(group []*suite.Protocol) *suite.Protocol {
	for _, p := range group {
		if p.Vector != nil {
			return p
		}
	}
	return group[0]
}

// checkTamperDetected changes one expected value in the first vector of
// each file and requires exactly those vectors to be reported.
func checkTamperDetected(p *suite.Protocol, files []vectors.File) error {
	var errs []error
	for _, f := range files {
		if len(f.Vectors) == 0 {
			errs = append(errs, fmt.Errorf("vector file %s is empty", f.Path))
			continue
		}
		tampered := f
		tampered.Vectors = append([]vectors.Vector(nil), f.Vectors[:1]...)
		exp, err := tamper(f.Vectors[0].Expected)
		if err != nil {
			errs = append(errs, fmt.Errorf("vector %s %s: %w", f.Path, f.Vectors[0].ID, err))
			continue
		}
		tampered.Vectors[0].Expected = exp
		if bad, _ := vectors.Check([]vectors.File{tampered}, p.Vector); len(bad) != 1 {
			errs = append(errs, fmt.Errorf("vector %s %s: a tampered expected value went unnoticed", f.Path, f.Vectors[0].ID))
		}
	}
	return errors.Join(errs...)
}

// tamper changes the first leaf of a JSON value: a number grows by one, a
// boolean flips, a string gains a character, null becomes a value.
func tamper(raw json.RawMessage) (json.RawMessage, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return json.Marshal(tamperValue(v))
}

func tamperValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(x) {
			x[k] = tamperValue(x[k])
			return x
		}
		x["tampered"] = true
		return x
	case []any:
		if len(x) == 0 {
			return []any{"tampered"}
		}
		x[0] = tamperValue(x[0])
		return x
	case float64:
		return x + 1
	case bool:
		return !x
	case string:
		return x + "~"
	}
	return "tampered"
}
