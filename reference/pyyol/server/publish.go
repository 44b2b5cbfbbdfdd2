package server

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/agentgames/conformance/reference/pushsign"
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
}

// owner authorizes a call on an agent: Bearer with that agent's key, which
// stands in for the dashboard JWT (PYYOL-REF-OWNER-AUTH).
func (g *Gateway) owner(h func(w http.ResponseWriter, r *http.Request, agentID string)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
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
		errs = manifest.Validate(m, manifest.Options{Dev: true})
	}
	errs = g.skipRule(errs)
	if len(errs) > 0 {
		// Every field rule (PYYOL-MANIFEST-VERSION ... PYYOL-MANIFEST-MODEL):
		// a broken one refuses the whole manifest and stores nothing.
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "invalid_manifest", "fields": errs})
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
	dir := strings.TrimSuffix(m.Endpoint.URL, "/turn")
	ctx, cancel := context.WithTimeout(r.Context(), 15*time.Second)
	defer cancel()
	var rep verifyReport
	// PYYOL-MANIFEST-VERIFY-HEALTH: /health answers {"status":"healthy"}.
	var health struct{ Status string }
	rep.HealthOK = g.call(ctx, http.MethodGet, dir+"/health", nil, "", &health) == http.StatusOK && health.Status == "healthy"
	// PYYOL-MANIFEST-VERIFY-HANDSHAKE, PYYOL-MANIFEST-VERIFY-GAMES.
	var hs struct {
		Accepted       bool     `json:"accepted"`
		SupportedGames []string `json:"supportedGames"`
	}
	rep.HandshakeOK = g.call(ctx, http.MethodPost, dir+"/handshake", []byte(`{"protocol":"1.0"}`), secret, &hs) == http.StatusOK && hs.Accepted
	rep.GamesCovered = rep.HandshakeOK && covers(hs.SupportedGames, m.Games)
	rep.Verified = rep.HealthOK && rep.HandshakeOK && rep.GamesCovered
	if g.opts.Tamper == VerifiesAnything {
		rep = verifyReport{true, true, true, true}
	}
	g.mu.Lock()
	p.verified = rep.Verified
	g.mu.Unlock()
	writeJSON(w, http.StatusOK, rep)
}

func covers(supported, games []string) bool {
	for _, game := range games {
		if !slices.Contains(supported, game) {
			return false
		}
	}
	return true
}

// call makes one platform call to an agent endpoint: signed with the
// endpoint secret as protocol.md says (none for /health), no redirects, a
// bounded body, a per-attempt timeout. The dev platform may call loopback
// addresses (PYYOL-REF-DEV-LOOPBACK); it refuses link-local and metadata
// addresses.
func (g *Gateway) call(ctx context.Context, method, target string, body []byte, secret string, out any) int {
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || forbiddenHost(u.Hostname()) {
		return 0
	}
	req, err := http.NewRequestWithContext(ctx, method, target, bytes.NewReader(body))
	if err != nil {
		return 0
	}
	req.Header.Set("Content-Type", "application/json")
	if secret != "" {
		g.sign(req, body, secret)
	}
	client := &http.Client{Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(out)
	return resp.StatusCode
}

// sign adds the push headers (PYYOL-MANIFEST-PLATFORM-SIGNS: PYYOL-SIGN-HEADERS,
// PYYOL-SIGN-STRING over the endpoint secret) with a
// fresh nonce.
func (g *Gateway) sign(req *http.Request, body []byte, secret string) {
	g.mu.Lock()
	g.minted++
	nonce := "req_" + hex.EncodeToString(g.derive("nonce", g.minted, 12))
	g.mu.Unlock()
	ts := pushsign.Timestamp(g.opts.Clock()())
	path := req.URL.EscapedPath()
	if g.opts.Tamper == SignsWrongPath {
		path = "/"
	}
	req.Header.Set(pushsign.TimestampHeader, ts)
	req.Header.Set(pushsign.NonceHeader, nonce)
	req.Header.Set(pushsign.SignatureHeader, pushsign.Header([]byte(secret), ts, nonce, req.Method, path, body))
	req.Header.Set("Authorization", "Bearer "+secret)
}

func forbiddenHost(host string) bool {
	ip := net.ParseIP(host)
	return ip != nil && (ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() || ip.Equal(net.ParseIP("169.254.169.254")))
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
