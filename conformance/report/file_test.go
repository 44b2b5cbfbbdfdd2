package report

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFileWritesWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.json")
	if err := WriteFile(path, func(w io.Writer) error { return WriteJSON(w, sampleReport()) }); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := jsonBytes(t); string(got) != string(want) {
		t.Error("file content differs from the writer's output")
	}
	info, _ := os.Stat(path)
	if info.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", info.Mode().Perm())
	}
	assertOnly(t, dir, "report.json")
}

// TestWriteFileKeepsOldReportOnFailure: a writer failing half way must leave
// the previous report intact and no temp file behind.
func TestWriteFileKeepsOldReportOnFailure(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.xml")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := WriteFile(path, func(w io.Writer) error {
		io.WriteString(w, strings.Repeat("partial ", 10000))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want it to wrap the writer's error", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("old report clobbered: %.20q", got)
	}
	assertOnly(t, dir, "report.xml")
}

func TestWriteFileMissingFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nope")
	err := WriteFile(filepath.Join(dir, "r.html"), func(w io.Writer) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "report folder "+dir+" does not exist") {
		t.Errorf("err = %v", err)
	}
	if _, statErr := os.Stat(dir); !errors.Is(statErr, os.ErrNotExist) {
		t.Error("WriteFile created the missing folder")
	}
}

func TestWriteFileParentIsAFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "plain")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(filepath.Join(file, "r.html"), func(w io.Writer) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "is not a folder") {
		t.Errorf("err = %v", err)
	}
}

// assertOnly checks dir holds exactly the named file: no temp leftovers.
func assertOnly(t *testing.T, dir, name string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != name {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("folder holds %v, want only %s", names, name)
	}
}
