// Package vectors holds the known-answer test vectors, one folder per
// protocol, one JSON file per kind, and checks them against a calculator.
package vectors

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/google/go-cmp/cmp"
)

//go:embed */*.json
var files embed.FS

// File is one vector file: all the vectors of one kind for one protocol.
type File struct {
	Protocol string   `json:"protocol"`
	Kind     string   `json:"kind"`
	Comment  string   `json:"comment"`
	Vectors  []Vector `json:"vectors"`
	Path     string   `json:"-"`
}

// Vector is one known answer: Expected is what the reference must compute
// from Input.
type Vector struct {
	ID       string          `json:"id"`
	Comment  string          `json:"comment"`
	Flags    []string        `json:"flags,omitempty"`
	Input    json.RawMessage `json:"input"`
	Expected json.RawMessage `json:"expected"`
}

// Protocols lists the folders that hold vector files, sorted.
func Protocols() []string {
	paths, _ := fs.Glob(files, "*/*.json")
	var out []string
	for _, p := range paths {
		dir := p[:strings.Index(p, "/")]
		if len(out) == 0 || out[len(out)-1] != dir {
			out = append(out, dir)
		}
	}
	return out
}

// Load reads every vector file of a protocol.
func Load(protocol string) ([]File, error) {
	paths, _ := fs.Glob(files, protocol+"/*.json")
	sort.Strings(paths)
	var out []File
	for _, p := range paths {
		raw, err := files.ReadFile(p)
		if err != nil {
			return nil, err
		}
		var f File
		if err := json.Unmarshal(raw, &f); err != nil {
			return nil, fmt.Errorf("vectors: %s: %w", p, err)
		}
		f.Path = p
		out = append(out, f)
	}
	return out, nil
}

// Mismatch is a vector the calculator did not reproduce.
type Mismatch struct {
	File string
	ID   string
	Diff string
}

// Calculator computes a vector's value from its kind and input.
type Calculator func(kind string, input json.RawMessage) (any, error)

// Check recomputes every vector of files and returns the mismatches and the
// number of vectors checked.
func Check(files []File, calc Calculator) ([]Mismatch, int) {
	var bad []Mismatch
	n := 0
	for _, f := range files {
		for _, v := range f.Vectors {
			n++
			if diff := checkOne(f.Kind, v, calc); diff != "" {
				bad = append(bad, Mismatch{File: f.Path, ID: v.ID, Diff: diff})
			}
		}
	}
	return bad, n
}

func checkOne(kind string, v Vector, calc Calculator) string {
	got, err := calc(kind, v.Input)
	if err != nil {
		return "calculator error: " + err.Error()
	}
	gotJSON, err := normalize(got)
	if err != nil {
		return "result not JSON: " + err.Error()
	}
	var want any
	if err := json.Unmarshal(v.Expected, &want); err != nil {
		return "expected not JSON: " + err.Error()
	}
	return cmp.Diff(want, gotJSON)
}

// normalize round-trips v through JSON so that structs compare with the
// generic values decoded from a file.
func normalize(v any) (any, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	return out, json.Unmarshal(raw, &out)
}
