package suite

import (
	"io/fs"
	"path"
	"strings"
	"testing/fstest"

	"github.com/agentgames/conformance/features"
	"github.com/agentgames/conformance/spec"
)

// Two protocols may share one data folder (Pyyol's gateway and push sides
// share spec/pyyol): each names its own feature files with FeatureFiles and
// sees only them and the rules they tag, while the folder as a whole keeps
// one catalogue, one source contract and one set of vectors.

// readCatalogue reads the protocol's rule catalogue: the folder's, cut to
// the rules the protocol's own features tag when it shares the folder.
func (p *Protocol) readCatalogue() (*spec.Catalogue, error) {
	cat, err := p.folderCatalogue()
	if err != nil || p.FeatureFiles == "" {
		return cat, err
	}
	scenarios, err := p.scenarios()
	if err != nil {
		return nil, err
	}
	tagged := map[string]bool{}
	for _, s := range scenarios {
		for _, t := range s.Tags {
			tagged[strings.TrimPrefix(t, "@")] = true
		}
	}
	out := *cat
	out.Rules = nil
	for _, r := range cat.Rules {
		if tagged[r.ID] || (p.AgentRules && r.ForAgents()) {
			out.Rules = append(out.Rules, r)
		}
	}
	return &out, nil
}

// featureFS returns the file system holding the protocol's features: the
// folder's, or only the files matching FeatureFiles.
func (p *Protocol) featureFS() fs.FS {
	all := p.folderFeatureFS()
	if p.FeatureFiles == "" {
		return all
	}
	if p.readsEmbedded() {
		return embeddedFeatureFS.Do(p.embeddedKey(), func(embeddedKey) fs.FS { return p.ownFeatures(all) })
	}
	return p.ownFeatures(all)
}

// ownFeatures copies the protocol's own feature files out of its folder's.
func (p *Protocol) ownFeatures(all fs.FS) fs.FS {
	out := fstest.MapFS{}
	for _, name := range features.PathsFS(all, p.DataFolder()) {
		if ok, _ := path.Match(p.FeatureFiles, path.Base(name)); !ok {
			continue
		}
		if raw, err := fs.ReadFile(all, name); err == nil {
			out[name] = &fstest.MapFile{Data: raw}
		}
	}
	return out
}
