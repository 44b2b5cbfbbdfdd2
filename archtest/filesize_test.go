package archtest

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxLines is the most lines a Go source file of the kit may hold: past it a
// file holds more than one job and is split by job.
const maxLines = 500

// TestNoSourceFileOver500Lines fails on any .go file of the module, tests
// included, longer than maxLines.
func TestNoSourceFileOver500Lines(t *testing.T) {
	long, walked, err := longGoFiles("..", maxLines)
	if err != nil {
		t.Fatal(err)
	}
	if walked == 0 {
		t.Fatal("found no Go files")
	}
	for _, f := range long {
		t.Errorf("%s: over %d lines; split it by job", f, maxLines)
	}
}

// TestLongFilesAreFound: the scan finds a planted file one line too long
// and passes one exactly at the limit.
func TestLongFilesAreFound(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, lines int) {
		src := "package p\n" + strings.Repeat("\n", lines-1)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("ok.go", maxLines)
	write("long_test.go", maxLines+1)
	long, walked, err := longGoFiles(dir, maxLines)
	if err != nil {
		t.Fatal(err)
	}
	if walked != 2 || len(long) != 1 || filepath.Base(long[0]) != "long_test.go" {
		t.Fatalf("walked %d, long %v; want 2 and [long_test.go]", walked, long)
	}
}

// longGoFiles returns the .go files under root with more than limit lines,
// and how many .go files it read; hidden folders are skipped.
func longGoFiles(root string, limit int) (long []string, walked int, err error) {
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		walked++
		if lines(src) > limit {
			long = append(long, path)
		}
		return nil
	})
	return long, walked, err
}

// lines counts src's lines, a last line without a newline included.
func lines(src []byte) int {
	n := bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return n
}
