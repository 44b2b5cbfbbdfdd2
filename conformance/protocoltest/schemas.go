package protocoltest

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentgames/conformance/conformance/suite"
)

// checkSchemas compiles every JSON Schema of the protocol's spec folder
// and its subfolders (each *.json but rules.json: WebSocket and push
// frame schemas)
// against its meta-schema, so a typo such as "type": "strin" fails here
// rather than passing every frame later.
func checkSchemas(p *suite.Protocol) error {
	fsys, err := schemaFS(p)
	if err != nil || fsys == nil {
		return err
	}
	names, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return err
	}
	// One folder down too: Pyyol's frame schemas live in spec/pyyol/frames
	// and $ref one another by relative name.
	nested, err := fs.Glob(fsys, "*/*.json")
	if err != nil {
		return err
	}
	names = append(names, nested...)
	c := jsonschema.NewCompiler()
	var errs []error
	var urls []string
	for _, name := range names {
		if name == "rules.json" {
			continue
		}
		raw, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			errs = append(errs, fmt.Errorf("schema %s: %w", name, err))
			continue
		}
		url := "file:///spec/" + path.Join(p.DataFolder(), name)
		if err := c.AddResource(url, doc); err != nil {
			errs = append(errs, fmt.Errorf("schema %s: %w", name, err))
			continue
		}
		urls = append(urls, url)
	}
	for _, url := range urls {
		if _, err := c.Compile(url); err != nil {
			errs = append(errs, fmt.Errorf("schema %s: %w", path.Base(url), err))
		}
	}
	return errors.Join(errs...)
}

// schemaFS returns the override, or spec/<Folder> of the checkout; nil
// when the protocol uses in-memory data and declares no schemas.
func schemaFS(p *suite.Protocol) (fs.FS, error) {
	if p.SchemaFiles != nil {
		return p.SchemaFiles, nil
	}
	if p.Catalogue != nil {
		return nil, nil
	}
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	return os.DirFS(filepath.Join(root, "spec", p.DataFolder())), nil
}
