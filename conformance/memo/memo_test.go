package memo_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentgames/conformance/conformance/memo"
)

func TestDoComputesEachKeyOnce(t *testing.T) {
	t.Parallel()
	var c memo.Cache[string, int]
	calls := 0
	square := func(s string) int { calls++; return len(s) * len(s) }
	assert.Equal(t, 9, c.Do("abc", square))
	assert.Equal(t, 9, c.Do("abc", square))
	assert.Equal(t, 4, c.Do("ab", square))
	assert.Equal(t, 2, calls)
}

func TestTheCacheStopsGrowingAtItsBound(t *testing.T) {
	t.Parallel()
	var c memo.Cache[int, int]
	for i := range memo.MaxEntries + 10 {
		c.Put(i, i)
	}
	_, kept := c.Get(memo.MaxEntries - 1)
	_, dropped := c.Get(memo.MaxEntries + 5)
	assert.True(t, kept)
	assert.False(t, dropped, "past the bound answers are not kept")
}
