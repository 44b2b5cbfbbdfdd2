package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"

	sx "github.com/agentgames/conformance/reference/shareexchange"
)

// ErrPrivateAddress refuses an outbound call to a loopback, private,
// link-local (cloud metadata included), unspecified or multicast address.
var ErrPrivateAddress = errors.New("refused: private, loopback, link-local or metadata address (allow it only for local testing)")

// sharedCGNAT is 100.64.0.0/10, not routable on the internet either.
var sharedCGNAT = netip.MustParsePrefix("100.64.0.0/10")

// Blocked reports whether an outbound call on an agent's behalf must not
// reach addr.
func Blocked(addr netip.Addr) bool {
	addr = addr.Unmap()
	return addr.IsLoopback() || addr.IsPrivate() || addr.IsLinkLocalUnicast() || addr.IsLinkLocalMulticast() ||
		addr.IsUnspecified() || addr.IsMulticast() || addr.IsInterfaceLocalMulticast() || sharedCGNAT.Contains(addr)
}

// Client returns an HTTP client for calls made on an agent's behalf (a
// contact on the board, a responder's platform): it checks the address it
// actually dials, after DNS, so a name cannot rebind to a private address.
// allowPrivate lifts the check for local testing.
func Client(allowPrivate bool, timeout time.Duration) *http.Client {
	d := &net.Dialer{Timeout: timeout}
	if !allowPrivate {
		d.Control = func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil || Blocked(ap.Addr()) {
				return fmt.Errorf("%s: %w", address, ErrPrivateAddress)
			}
			return nil
		}
	}
	return &http.Client{Timeout: timeout, Transport: &http.Transport{DialContext: d.DialContext},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// Collect is the collector end of a PULL: it asks the holder's listed
// contact for its share. A contact that is not http(s) cannot be pulled
// from (the holder offers instead).
func Collect(ctx context.Context, c *http.Client, contact string, p sx.Pull) (string, sx.Answer, error) {
	if !sx.HTTPContact(contact) {
		return "", sx.Answer{}, fmt.Errorf("contact %q is not an http(s) URL: read the offer inbox instead", contact)
	}
	var out struct {
		Code     string `json:"code"`
		ShareHex string `json:"share_hex"`
	}
	status, err := post(ctx, c, contact, p, &out)
	return out.ShareHex, sx.Answer{Status: status, Code: out.Code}, err
}

// SendOffer is the holder end of an OFFER, to the collector's contact.
func SendOffer(ctx context.Context, c *http.Client, contact string, o sx.Offer) (sx.Answer, error) {
	var out struct {
		Code string `json:"code"`
	}
	status, err := post(ctx, c, contact, o, &out)
	return sx.Answer{Status: status, Code: out.Code}, err
}

func post(ctx context.Context, c *http.Client, url string, body, out any) (int, error) {
	raw, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(raw))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	_ = json.Unmarshal(data, out)
	return resp.StatusCode, nil
}
