package server

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/agentgames/conformance/reference/pyyol/manifest"
	"github.com/agentgames/conformance/reference/skeleton"
)

// published is an agent's manifest on the platform.
type published struct {
	id       string
	manifest *manifest.Manifest
	secret   string
	verified bool
}

// routePublish mounts the publish flow (manifest.md "Publishing").
func (g *Gateway) routePublish() {
	g.mux.HandleFunc("POST "+BasePath+"/agents/{agent}/manifest", g.owner(g.submit))
	g.mux.HandleFunc("PUT "+BasePath+"/agents/{agent}/manifest/{manifest}/endpoint-secret", g.owner(g.setSecret))
	g.mux.HandleFunc("POST "+BasePath+"/agents/{agent}/manifest/{manifest}/verify", g.owner(g.verify))
	// PYYOL-PLAT-REF-PRACTICE: a runner asks for another push match.
	g.mux.HandleFunc("POST "+BasePath+"/agents/{agent}/manifest/{manifest}/practice", g.owner(g.pushPractice))
}

// owner authorizes a call on an agent: Bearer with that agent's key, which
// stands in for the dashboard JWT (PYYOL-REF-OWNER-AUTH).
func (g *Gateway) owner(h func(w http.ResponseWriter, r *http.Request, agentID string)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		token, _ := skeleton.BearerToken(r)
		id, ok := g.resolve(token, "")
		if !ok || id != r.PathValue("agent") {
			writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "unauthorized"})
			return
		}
		h(w, r, id)
	}
}

// submit validates and stores a manifest (PYYOL-MANIFEST-SUBMIT).
func (g *Gateway) submit(w http.ResponseWriter, r *http.Request, agentID string) {
	raw, ierr := skeleton.ReadBody(r, maxManifest) // a manifest is JSON or YAML: only bounded here (PYYOL-MANIFEST-SUBMIT)
	if ierr != nil {
		writeJSON(w, ierr.Status, map[string]string{"error": ierr.Code, "message": ierr.Message})
		return
	}
	raw, ok := g.tamperManifest(raw)
	if !ok {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_manifest"})
		return
	}
	// PYYOL-MANIFEST-FORMAT, PYYOL-MANIFEST-CAMELCASE: manifest.Parse.
	m, errs := manifest.Parse(raw)
	if errs == nil {
		errs = manifest.Validate(m, manifest.Options{Dev: !g.opts.Production})
	}
	errs = g.skipRule(errs)
	if len(errs) > 0 {
		// Every field rule (PYYOL-MANIFEST-VERSION ... PYYOL-MANIFEST-MODEL):
		// a broken one refuses the whole manifest and stores nothing.
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "invalid_manifest", "fields": errs})
		return
	}
	if g.endpointForbidden(m.Endpoint.URL) {
		// PYYOL-PLAT-SSRF: an endpoint naming a private, link-local,
		// metadata, multicast or unspecified address is refused at submit,
		// before any call.
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "invalid_manifest",
			"fields": []string{"endpoint.url: a private, link-local or metadata address"}})
		return
	}
	g.mu.Lock()
	g.minted++
	id := "man_" + hex.EncodeToString(g.derive("manifest", g.minted, 8))
	g.manifests[agentID+"/"+id] = &published{id: id, manifest: m}
	g.mu.Unlock()
	writeJSON(w, http.StatusCreated, map[string]string{"manifest_id": id, "status": "submitted"})
}

func (g *Gateway) findManifest(w http.ResponseWriter, r *http.Request, agentID string) *published {
	g.mu.Lock()
	p := g.manifests[agentID+"/"+r.PathValue("manifest")]
	g.mu.Unlock()
	if p == nil {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "unknown_manifest"})
	}
	return p
}

// setSecret stores the endpoint secret (PYYOL-MANIFEST-SECRET).
func (g *Gateway) setSecret(w http.ResponseWriter, r *http.Request, agentID string) {
	p := g.findManifest(w, r, agentID)
	if p == nil {
		return
	}
	var body struct{ Token string }
	if ierr := skeleton.ReadJSON(r, maxBody, &body); ierr != nil || body.Token == "" { // the shared input policy (reference/skeleton)
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "token_required", "message": policyMessage(ierr, "a body {\"token\": ...}")})
		return
	}
	g.mu.Lock()
	p.secret, p.verified = body.Token, false
	g.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]bool{"stored": true})
}

// verifyReport is the documented report (PYYOL-MANIFEST-VERIFY).
type verifyReport struct {
	Verified     bool `json:"verified"`
	HealthOK     bool `json:"health_ok"`
	HandshakeOK  bool `json:"handshake_ok"`
	GamesCovered bool `json:"games_covered"`
}

// verify calls the endpoint's /health and /handshake and reports.
func (g *Gateway) verify(w http.ResponseWriter, r *http.Request, agentID string) {
	p := g.findManifest(w, r, agentID)
	if p == nil {
		return
	}
	g.mu.Lock()
	m, secret := p.manifest, p.secret
	g.mu.Unlock()
	if secret == "" {
		writeJSON(w, http.StatusConflict, map[string]string{"error": "endpoint_secret_required"})
		return
	}
	c := g.newPushClient(m, secret)
	ctx, cancel := context.WithTimeout(r.Context(), 15*time.Second)
	defer cancel()
	var rep verifyReport
	// PYYOL-MANIFEST-VERIFY-HEALTH: /health answers {"status":"healthy"}.
	var health struct{ Status string }
	hr := c.health(ctx)
	rep.HealthOK = hr.ok() && json.Unmarshal(hr.body, &health) == nil && health.Status == "healthy"
	// PYYOL-MANIFEST-VERIFY-HANDSHAKE, PYYOL-MANIFEST-VERIFY-GAMES: the
	// handshake body is {platform, protocol}, as the real platform sends.
	var hs struct {
		Accepted       bool     `json:"accepted"`
		SupportedGames []string `json:"supportedGames"`
	}
	hr = c.call(ctx, "/handshake", map[string]any{"platform": Platform})
	rep.HandshakeOK = hr.ok() && json.Unmarshal(hr.body, &hs) == nil && hs.Accepted
	rep.GamesCovered = rep.HandshakeOK && covers(hs.SupportedGames, m.Games)
	rep.Verified = rep.HealthOK && rep.HandshakeOK && rep.GamesCovered
	if g.opts.Tamper == VerifiesAnything {
		rep = verifyReport{true, true, true, true}
	}
	g.mu.Lock()
	p.verified = rep.Verified
	g.mu.Unlock()
	writeJSON(w, http.StatusOK, rep)
	if rep.Verified && slices.Contains(m.Games, "goofspiel") {
		// PYYOL-PLAT-REF-PRACTICE: a verified endpoint gets one practice
		// Goofspiel match pushed to it.
		g.startPushMatch(c)
	}
}

// Platform names the reference platform in the handshake body.
const Platform = "pyyol-reference"

// endpointForbidden reports an endpoint.url whose host is an address the
// platform refuses to call (PYYOL-PLAT-SSRF).
func (g *Gateway) endpointForbidden(endpoint string) bool {
	u, err := url.Parse(endpoint)
	return err == nil && g.forbiddenHost(u.Hostname())
}

func covers(supported, games []string) bool {
	for _, game := range games {
		if !slices.Contains(supported, game) {
			return false
		}
	}
	return true
}

// certified reports whether the agent has a verified manifest.
func (g *Gateway) certified(agentID string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	for k, p := range g.manifests {
		if strings.HasPrefix(k, agentID+"/") && p.verified {
			return true
		}
	}
	return g.opts.Tamper == CertifiesAnyone
}
