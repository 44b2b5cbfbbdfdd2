package iyra

import (
	"fmt"
	"slices"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/iyra"
)

// sitesSteps registers the steps of features/iyra/sites.feature.
func (w *world) sitesSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the chapter is "([^"]*)"$`), w.chapter)
	sc.Step(pattern(`^the chapter is no longer "inquiry"$`), w.chapterLeftInquiry)
	sc.Step(pattern(`^the (archive|harbor|spire) is inspected, its text revealed and collected$`), w.siteRevealed)
	sc.Step(pattern(`^collected_sources names "(archive|harbor|spire)"$`), w.collectedNames)
	sc.Step(pattern(`^the other sites are still uninspected with empty text$`), w.othersEmpty)
}

// chapter checks the latest state's chapter.
func (w *world) chapter(want string) error {
	if err := w.needSession(); err != nil {
		return err
	}
	if got := w.sess.Observation.Chapter; got != want {
		return verdict.Failf(w.rule(), want, got, "chapter")
	}
	return nil
}

// chapterLeftInquiry requires the chapter to have left inquiry after an
// accepted action other than an inspection: the chapter describes the
// latest activity (IYRA-CHAPTER-LATEST).
func (w *world) chapterLeftInquiry() error {
	if err := w.accepted(); err != nil {
		return err
	}
	if got := w.sess.Observation.Chapter; got == iyra.ChapterInquiry {
		return verdict.Failf("IYRA-CHAPTER-LATEST", "a chapter other than inquiry", got, "after %s", w.lastAction())
	}
	return nil
}

// siteRevealed checks an inspection's flag, text and source (IYRA-SITE-REVEAL).
func (w *world) siteRevealed(site string) error {
	if err := w.accepted(); err != nil {
		return err
	}
	o := w.sess.Observation
	flag, text := siteView(o, site)
	grown := w.Before == nil || len(o.CollectedSources) == len(w.Before.Observation.CollectedSources)+1
	if !flag || text == "" || !grown {
		return verdict.Failf("IYRA-SITE-REVEAL", site+" checked, its text non-empty and one more collected source",
			fmt.Sprintf("checked=%v text=%q collected=%v", flag, text, o.CollectedSources), "after investigating")
	}
	if other := misplaced(site, text); other != "" {
		return verdict.Failf("IYRA-SITE-REVEAL", site+"'s own account", text, "the %s revealed the kit's %s account", site, other)
	}
	if !slices.Contains(o.CollectedSources, site) {
		// The contract names collected_sources, not its entries.
		w.note("IYRA-COLLECTED-SOURCE-IDS", "an entry "+site, o.CollectedSources, "collected_sources after investigating")
	}
	return nil
}

// collectedNames requires collected_sources to hold the site's id
// (IYRA-COLLECTED-SOURCE-IDS, the kit's choice).
func (w *world) collectedNames(site string) error {
	if err := w.needSession(); err != nil {
		return err
	}
	if got := w.sess.Observation.CollectedSources; !slices.Contains(got, site) {
		return verdict.Failf("IYRA-COLLECTED-SOURCE-IDS", "an entry "+site, got, "collected_sources")
	}
	return nil
}

// othersEmpty requires uninspected sites to stay unchecked and empty (IYRA-SITE-REVEAL).
func (w *world) othersEmpty() error {
	o := w.sess.Observation
	inspected := 0
	for _, s := range iyra.Sites {
		flag, text := siteView(o, string(s))
		switch {
		case flag:
			inspected++
		case text != "":
			return verdict.Failf("IYRA-SITE-REVEAL", string(s)+" unchecked with empty text", fmt.Sprintf("checked=%v text=%q", flag, text), "uninspected site")
		}
	}
	if inspected != 1 {
		return verdict.Failf("IYRA-SITE-REVEAL", "one site checked", inspected, "after one inspection")
	}
	if len(o.CollectedSources) != 1 {
		return verdict.Failf("IYRA-SITE-REVEAL", 1, len(o.CollectedSources), "collected_sources after one inspection")
	}
	return nil
}

// misplaced names the other site whose kit account (of any kit variant) a
// site revealed, when that text is no kit account of the site itself:
// the one misplacement a run can tell, since a deployment's own accounts
// are its own to author (IYRA-SITE-REVEAL: inspection reveals the site's
// own fact).
func misplaced(site, text string) string {
	other := ""
	for _, v := range iyra.DefaultPack().Variants {
		for _, t := range [][2]string{{"archive", v.ArchiveTestimony}, {"harbor", v.HarborTestimony}, {"spire", v.SpireFact}} {
			switch {
			case t[1] != text:
			case t[0] == site:
				return ""
			case other == "":
				other = t[0]
			}
		}
	}
	return other
}
