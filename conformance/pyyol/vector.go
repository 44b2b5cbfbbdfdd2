package pyyol

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentgames/conformance/reference/pushsign"
	"github.com/agentgames/conformance/reference/pyyol/stakes"
)

// Vector recomputes one of the vectors/pyyol known answers with
// reference/pushsign.
func Vector(kind string, input json.RawMessage) (any, error) {
	switch kind {
	case "signing":
		var in struct{ Secret, Timestamp, Nonce, Method, Path, Body string }
		if err := json.Unmarshal(input, &in); err != nil {
			return nil, err
		}
		return map[string]string{
			"signing_string": pushsign.SigningString(in.Timestamp, in.Nonce, in.Method, in.Path, []byte(in.Body)),
			"signature":      pushsign.Header([]byte(in.Secret), in.Timestamp, in.Nonce, in.Method, in.Path, []byte(in.Body))}, nil
	case "verify":
		return verifyVector(input)
	case "settlement":
		var in struct {
			Stake, Percent int64
			Outcome        int
		}
		if err := json.Unmarshal(input, &in); err != nil {
			return nil, err
		}
		rake := stakes.Rake(in.Stake, in.Percent)
		return map[string]int64{"rake": rake, "delta": stakes.Settle(in.Stake, rake, in.Outcome)}, nil
	case "limits":
		var in struct {
			Stake int64 `json:"stake"`
			stakes.Limits
		}
		if err := json.Unmarshal(input, &in); err != nil {
			return nil, err
		}
		code := ""
		if p := stakes.Admit(in.Stake, in.Limits); p != nil {
			code = p.Code
		}
		return map[string]string{"error": code}, nil
	case "hmac-sha256":
		var in struct {
			Key, Data string
			Truncate  int
		}
		if err := json.Unmarshal(input, &in); err != nil {
			return nil, err
		}
		key, err1 := hex.DecodeString(in.Key)
		data, err2 := hex.DecodeString(in.Data)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("bad hex in key or data")
		}
		mac := pushsign.HMACSHA256(key, data)
		if in.Truncate > 0 {
			mac = mac[:in.Truncate]
		}
		return map[string]string{"mac": hex.EncodeToString(mac)}, nil
	}
	return nil, fmt.Errorf("unknown vector kind %q", kind)
}

func verifyVector(input json.RawMessage) (any, error) {
	var in struct {
		Secret, Now, Timestamp, Nonce, Signature, Method, Path, Body string
		Seen                                                         []string
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, err
	}
	now, err := time.Parse(time.RFC3339, in.Now)
	if err != nil {
		return nil, err
	}
	v := pushsign.NewVerifier([]byte(in.Secret), func() time.Time { return now })
	for _, n := range in.Seen {
		ts := pushsign.Timestamp(now)
		v.Verify(pushsign.Signed{Timestamp: ts, Nonce: n, Method: "POST", Path: "/seen",
			Signature: pushsign.Header([]byte(in.Secret), ts, n, "POST", "/seen", nil)})
	}
	r := v.Verify(pushsign.Signed{Timestamp: in.Timestamp, Nonce: in.Nonce, Signature: in.Signature,
		Method: in.Method, Path: in.Path, Body: []byte(in.Body)})
	return map[string]string{"reason": string(r)}, nil
}
