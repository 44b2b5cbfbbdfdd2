package report

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile writes a report to path through a temporary file in the same
// folder that is renamed over path only once write succeeded, so a failed
// or interrupted run never leaves a partial report where CI expects one.
// The folder must exist: a report path with a typo should fail loudly, not
// create a tree nobody looks at.
func WriteFile(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	if err := checkDir(dir); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("report %s: %w", path, err)
	}
	if err := fill(tmp, write); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("report %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("report %s: %w", path, err)
	}
	return nil
}

// checkDir explains a missing or non-folder parent in plain words.
func checkDir(dir string) error {
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("report folder %s does not exist", dir)
	case err != nil:
		return fmt.Errorf("report folder %s: %w", dir, err)
	case !info.IsDir():
		return fmt.Errorf("report folder %s is not a folder", dir)
	}
	return nil
}

// fill runs write into the temp file, flushes, syncs and closes it, and
// makes it readable like any file the user creates (CreateTemp uses 0600).
func fill(f *os.File, write func(io.Writer) error) error {
	bw := bufio.NewWriter(f)
	err := write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
