package server

import (
	"strconv"

	"github.com/agentgames/conformance/reference/iyra"
	"github.com/agentgames/conformance/reference/skeleton"
)

// The session answer is every write's answer, and encoding it through
// reflection (the declared catalogue's maps above all) was most of a
// write's own cost. appendSession writes the same bytes as
// encoding/json does for sessionResponse (HTML characters not escaped,
// one trailing newline, as skeleton.EncodeJSON), field by field;
// TestSessionEncodingMatchesEncodingJSON holds it to that
// (IYRA-SESSION-SHAPE, IYRA-OPENAPI).

// catalogueJSON is the declared legal_actions catalogue as JSON, encoded
// once: it is the same for every active session (IYRA-LEGAL-CATALOGUE).
var catalogueJSON = skeleton.MarshalJSON(iyra.Catalogue())

// appendSession appends r as JSON and a newline.
func appendSession(b []byte, r sessionResponse) []byte {
	b = appendKey(b, '{', "session_id", r.SessionID)
	b = appendKey(b, ',', "slug", r.Slug)
	b = appendKey(b, ',', "version_id", r.VersionID)
	b = appendKey(b, ',', "variant", r.Variant)
	b = appendKey(b, ',', "state_url", r.StateURL)
	b = appendKey(b, ',', "actions_url", r.ActionsURL)
	b = appendKey(b, ',', "replay_url", r.ReplayURL)
	b = appendInt(b, "revision", r.Revision)
	b = appendKey(b, ',', "status", r.Status)
	b = appendBool(b, "terminal", r.Terminal)
	b = appendKey(b, ',', "outcome", r.Outcome)
	b = appendInt(b, "score", r.Score)
	b = appendObservation(append(b, `,"observation":`...), r.Observation)
	b = append(b, `,"legal_actions":`...)
	if r.DeclaresCatalogue() {
		b = append(b, catalogueJSON...)
	} else {
		b = append(b, skeleton.MarshalJSON(r.LegalActions)...)
	}
	b = appendProgress(append(b, `,"progress":`...), r.Progress)
	return append(b, "}\n"...)
}

// appendObservation appends the observation object (IYRA-OBSERVATION-FIELDS).
func appendObservation(b []byte, o iyra.Observation) []byte {
	b = appendKey(b, '{', "chapter", o.Chapter)
	b = appendInt(b, "trust", o.Trust)
	b = appendInt(b, "evidence", o.Evidence)
	b = appendInt(b, "signal", o.Signal)
	b = appendStrings(b, "allies", o.Allies)
	b = appendKey(b, ',', "ending", o.Ending)
	b = appendKey(b, ',', "epilogue", o.Epilogue)
	b = appendBool(b, "archive_checked", o.ArchiveChecked)
	b = appendBool(b, "harbor_checked", o.HarborChecked)
	b = appendBool(b, "spire_checked", o.SpireChecked)
	b = appendKey(b, ',', "archive_testimony", o.ArchiveTestimony)
	b = appendKey(b, ',', "harbor_testimony", o.HarborTestimony)
	b = appendKey(b, ',', "spire_fact", o.SpireFact)
	b = appendKey(b, ',', "selected_claim", o.SelectedClaim)
	b = appendStrings(b, "collected_sources", o.CollectedSources)
	b = appendKey(b, ',', "phase", o.Phase)
	return append(b, '}')
}

// appendProgress appends the progress panel (IYRA-PROGRESS).
func appendProgress(b []byte, p iyra.Progress) []byte {
	b = append(b, `{"evidence":`...)
	b = appendGauge(b, p.Evidence)
	b = append(b, `,"signal":`...)
	b = appendGauge(b, p.Signal)
	b = appendInt(b, "trust", p.Trust)
	b = appendStrings(b, "allies", p.Allies)
	b = appendKey(b, ',', "chapter", p.Chapter)
	b = appendKey(b, ',', "epilogue", p.Epilogue)
	b = appendStrings(b, "inspected_sites", p.InspectedSites)
	b = appendKey(b, ',', "selected_claim", p.SelectedClaim)
	b = appendStrings(b, "collected_sources", p.CollectedSources)
	b = appendInt(b, "steps_used", p.StepsUsed)
	b = appendInt(b, "steps_remaining", p.StepsRemaining)
	b = appendStrings(b, "milestones", p.Milestones)
	return append(b, '}')
}

// appendGauge appends {"value":v,"target":t}.
func appendGauge(b []byte, g iyra.Gauge) []byte {
	b = append(b, `{"value":`...)
	b = strconv.AppendInt(b, int64(g.Value), 10)
	b = append(b, `,"target":`...)
	b = strconv.AppendInt(b, int64(g.Target), 10)
	return append(b, '}')
}

// appendKey appends sep, the member name (plain ASCII, written as it is)
// and the string value.
func appendKey(b []byte, sep byte, name, value string) []byte {
	b = append(append(append(b, sep, '"'), name...), `":`...)
	return skeleton.AppendJSONString(b, value)
}

// appendInt appends a number member after a comma.
func appendInt(b []byte, name string, v int) []byte {
	b = append(append(append(b, ',', '"'), name...), `":`...)
	return strconv.AppendInt(b, int64(v), 10)
}

// appendBool appends a true/false member after a comma.
func appendBool(b []byte, name string, v bool) []byte {
	b = append(append(append(b, ',', '"'), name...), `":`...)
	return strconv.AppendBool(b, v)
}

// appendStrings appends a string-array member after a comma; a nil slice
// is null, as encoding/json writes it.
func appendStrings(b []byte, name string, vs []string) []byte {
	b = append(append(append(b, ',', '"'), name...), `":`...)
	if vs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = skeleton.AppendJSONString(b, v)
	}
	return append(b, ']')
}
