package shareexchange_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"

	harness "github.com/agentgames/conformance/conformance/tamper"
)

// The targets of the second round of slipCases (broken_slips_test.go;
// docs/detection.md): the table stays there, its middleware lives here.

// offerRecoded answers an offer's refusal coded from with status and
// code; a pull's refusal of the same code is left alone.
func offerRecoded(from string, status int, code string) func(h http.Handler) http.Handler {
	recode := harness.Recode(from, status, code)
	return exchangeOnly(func(r *http.Request, st *int, m map[string]any) {
		if m["kind"] == "offer" {
			recode(r, st, m)
		}
	})
}

// sharesOnNotBroker answers a not_broker refusal with the share inside a
// "forward" block, for the requester to hand to the broker: the share
// read before the release rule was applied.
func sharesOnNotBroker(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		first := serve(h, r, body)
		var m map[string]any
		if json.Unmarshal(first.Body.Bytes(), &m) != nil || m["code"] != "not_broker" {
			copyAnswer(w, first, first.Body.Bytes())
			return
		}
		if rel := asBroker(h, r, body, m); rel != nil {
			m["forward"] = map[string]any{"to": m["broker"], "share_hex": rel["share_hex"]}
		}
		out, _ := json.Marshal(m)
		copyAnswer(w, first, out)
	})
}

// releasesWhatItHolds answers a pull for a share the holder does not hold
// with the first share it does hold: the share looked up by holder only.
func releasesWhatItHolds(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		first := serve(h, r, body)
		var m, p map[string]any
		if json.Unmarshal(first.Body.Bytes(), &m) != nil || m["code"] != "not_held" || json.Unmarshal(body, &p) != nil {
			copyAnswer(w, first, first.Body.Bytes())
			return
		}
		for i := 1; i <= 5; i++ {
			p["share_index"] = i
			again, _ := json.Marshal(p)
			rec := serve(h, r, again)
			if rec.Code == http.StatusOK {
				copyAnswer(w, rec, rec.Body.Bytes())
				return
			}
		}
		copyAnswer(w, first, first.Body.Bytes())
	})
}

// asBroker is the release the pull would get from the broker m names.
func asBroker(h http.Handler, r *http.Request, body []byte, m map[string]any) map[string]any {
	var p map[string]any
	if json.Unmarshal(body, &p) != nil || m["broker"] == nil {
		return nil
	}
	p["requester"] = m["broker"]
	again, _ := json.Marshal(p)
	rec := serve(h, r, again)
	var rel map[string]any
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &rel) != nil {
		return nil
	}
	return rel
}

// serve runs r with body through h, for the responder's own routes only.
func serve(h http.Handler, r *http.Request, body []byte) *httptest.ResponseRecorder {
	q := r.Clone(r.Context())
	q.Body, q.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, q)
	return rec
}

// copyAnswer writes rec's headers and status with body.
func copyAnswer(w http.ResponseWriter, rec *httptest.ResponseRecorder, body []byte) {
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.Header().Del("Content-Length")
	w.WriteHeader(rec.Code)
	_, _ = w.Write(body)
}
