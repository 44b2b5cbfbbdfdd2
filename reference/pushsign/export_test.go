package pushsign

// Remembered is how many nonces v holds.
func Remembered(v *Verifier) int { return v.remembered() }

// WithMaxNonces lowers v's nonce bound, for a test that fills it.
func WithMaxNonces(v *Verifier, n int) *Verifier {
	v.maxNonces = n
	return v
}
