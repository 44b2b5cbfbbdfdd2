package server

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/agentgames/conformance/reference/skeleton"
)

// TestDocumentsAreTheirEncoding: the answers kept encoded (the store
// entry, the trust document, the assignment per origin) are byte for byte
// their documents' encoding, the first time and every time after, for
// every origin, past the cache's bound too; and the cache stays bounded
// however many hosts a client names.
func TestDocumentsAreTheirEncoding(t *testing.T) {
	h := newHarness(t, Options{Seed: 3})
	get := func(path, host string) []byte {
		req := httptest.NewRequest("GET", BasePath+path, nil)
		req.Host = host
		req.Header.Set("Authorization", "Bearer "+h.key)
		rec := httptest.NewRecorder()
		h.s.ServeHTTP(rec, req)
		if rec.Code != 200 {
			t.Fatalf("%s at %s: %d %s", path, host, rec.Code, rec.Body)
		}
		return rec.Body.Bytes()
	}
	want := func(doc any) []byte { return skeleton.EncodeJSON(200, doc).Body }
	for round := range 2 {
		for i := range maxDocuments + 4 {
			host := fmt.Sprintf("h%d.example", i)
			if got := get("/store/"+Slug+"/assignment", host); !bytes.Equal(got, want(assignmentDoc("http://"+host))) {
				t.Fatalf("round %d, %s: the assignment is not its encoding", round, host)
			}
		}
		if !bytes.Equal(get("/trust", "a.example"), want(trustDoc())) || !bytes.Equal(get("/store/"+Slug, "a.example"), want(storeDoc())) {
			t.Fatalf("round %d: the trust document or the store entry is not its encoding", round)
		}
	}
	if n := len(h.s.docs); n > maxDocuments {
		t.Fatalf("%d documents kept, the bound is %d", n, maxDocuments)
	}
}
