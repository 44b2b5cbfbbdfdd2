package cli_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/protocols"
)

// docCommand is one conformance command a document shows.
type docCommand struct {
	file string
	line int
	args []string // after the program name
}

// docFiles are the documents whose commands must run as written: the
// README and every page under docs/.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{filepath.Join("..", "..", "README.md")}
	more, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	require.NoError(t, err)
	return append(files, more...)
}

// program is how a document starts the binary.
var program = regexp.MustCompile(`^(?:\$ )?(?:go run \./cmd/conformance|\./bin/conformance|bin/conformance|\./conformance|conformance)(?:\s|$)`)

// commandsIn lists the conformance commands of a document's shell blocks:
// continuation lines joined, comments, redirections, pipes and
// backgrounding cut.
func commandsIn(t *testing.T, file string) []docCommand {
	t.Helper()
	raw, err := os.ReadFile(file)
	require.NoError(t, err)
	var out []docCommand
	fenced, shell := false, false
	lines := strings.Split(string(raw), "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			shell = fenced && slices.Contains([]string{"```", "```sh", "```bash", "```shell"}, line)
			continue
		}
		if !shell {
			continue
		}
		start := i
		for strings.HasSuffix(line, "\\") && i+1 < len(lines) {
			i++
			line = strings.TrimSuffix(line, "\\") + " " + strings.TrimSpace(lines[i])
		}
		loc := program.FindStringIndex(line)
		if loc == nil {
			continue
		}
		rest := line[loc[1]:]
		for _, cut := range []string{" #", " &", " >", " |", " ;", "&&"} {
			if k := strings.Index(rest, cut); k >= 0 {
				rest = rest[:k]
			}
		}
		out = append(out, docCommand{file: filepath.Base(file), line: start + 1, args: shellWords(rest)})
	}
	return out
}

// shellWords splits a command line into words as a shell would for the
// simple quoting documents use.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	quote, in := byte(0), false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '"' || c == '\'':
			quote, in = c, true
		case c == ' ' || c == '\t':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}

// verbPath is how many leading words name the command: "spec diff",
// "simulate mafia", "solve forge" take two.
func verbPath(args []string) []string {
	if len(args) >= 2 && slices.Contains([]string{"spec", "simulate", "solve"}, args[0]) && !strings.HasPrefix(args[1], "-") {
		return args[:2]
	}
	if len(args) == 0 {
		return nil
	}
	return args[:1]
}

// definedFlags are the flags a command's --help lists.
func definedFlags(t *testing.T, verb []string) map[string]bool {
	t.Helper()
	code, out, errOut := run(append(slices.Clone(verb), "--help")...)
	require.Equal(t, 0, code, "%v --help: %s", verb, errOut)
	flags := map[string]bool{"help": true}
	for _, m := range regexp.MustCompile(`(?m)^  -([a-z][a-z0-9-]*)`).FindAllStringSubmatch(out, -1) {
		flags[m[1]] = true
	}
	return flags
}

// TestEveryDocumentedCommandRunsAsWritten: every conformance command the
// README and docs/ show names a real verb and only flags that verb
// defines; the cheap ones (rules, vectors, help) are run and must succeed.
func TestEveryDocumentedCommandRunsAsWritten(t *testing.T) {
	t.Parallel()
	known := map[string]map[string]bool{}
	seen, ran := 0, 0
	for _, file := range docFiles(t) {
		for _, c := range commandsIn(t, file) {
			seen++
			where := c.file + ":" + strconv.Itoa(c.line)
			verb := verbPath(c.args)
			if len(verb) == 0 {
				continue // the program alone prints its usage
			}
			key := strings.Join(verb, " ")
			if known[key] == nil {
				known[key] = definedFlags(t, verb)
			}
			for _, w := range c.args[len(verb):] {
				name, isFlag := strings.CutPrefix(w, "--")
				if !isFlag || name == "" {
					continue
				}
				name, _, _ = strings.Cut(name, "=")
				assert.True(t, known[key][name], "%s: conformance %s has no flag --%s", where, key, name)
			}
			if cheap(c.args) {
				code, _, errOut := run(fromRoot(c.args)...)
				assert.Equal(t, 0, code, "%s: conformance %s: %s", where, strings.Join(c.args, " "), errOut)
				ran++
			}
		}
	}
	assert.Greater(t, seen, 30, "the documents show the commands a newcomer needs")
	assert.GreaterOrEqual(t, ran, 5, "the cheap commands are run, not only parsed")
}

// fromRoot points a documented command's repository paths (fixtures/...)
// at the checkout root, since the documents run from there and the test
// from conformance/cli.
func fromRoot(args []string) []string {
	out := slices.Clone(args)
	for i, a := range out {
		if strings.HasPrefix(a, "fixtures/") {
			out[i] = filepath.Join("..", "..", a)
		}
	}
	return out
}

// cheap reports whether a documented command is quick to run for real:
// listing the rules, recomputing the vectors, listing serve's faults,
// diffing a seed of the checkout, asking for help.
func cheap(args []string) bool {
	switch {
	case slices.Contains(args, "--help"):
		return true
	case args[0] == "rules" && !slices.Contains(args, "--uncovered") && !slices.Contains(args, "--untampered"):
		// --uncovered and --untampered exit 1 while gaps remain: they are
		// checks of the catalogue, with tests of their own.
		return true
	case args[0] == "vectors":
		return true
	case args[0] == "serve" && slices.Equal(args[1:], []string{"--faults", "list"}):
		return true // lists the faults and exits
	case len(args) > 3 && args[0] == "spec" && args[1] == "diff":
		// A diff of a file in the checkout (the seed itself) is quick; a
		// diff of a new version the reader brings has no file here.
		return strings.HasPrefix(args[len(args)-1], "fixtures/")
	}
	return false
}

// TestDocumentedRuleCountsAreTheCatalogues: the README's protocol table
// ("catalogue (N rules, M of them for agents)") and the first "N rules" of
// each protocol's page in docs/ say what the catalogues hold, so a rule
// added or dropped cannot leave a newcomer a stale figure.
func TestDocumentedRuleCountsAreTheCatalogues(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	row := regexp.MustCompile("(?m)^\\|[^|]*\\| `([a-z-]+)` \\|.*?\\((\\d+) rules, (\\d+) of them for agents\\)")
	rows := row.FindAllStringSubmatch(string(readme), -1)
	require.Len(t, rows, 6, "one row with a count per catalogue")
	for _, m := range rows {
		total, agents := catalogueCounts(t, m[1])
		assert.Equal(t, strconv.Itoa(total), m[2], "README: %s's rule count", m[1])
		assert.Equal(t, strconv.Itoa(agents), m[3], "README: %s's rules for agents", m[1])
	}
	first := regexp.MustCompile(`(\d+) rules\b`)
	for page, protocol := range map[string]string{"iyra.md": "iyra", "phantom-press.md": "phantom-press", "forge.md": "forge",
		"bounty.md": "bounty", "share-exchange.md": "share-exchange", "pyyol.md": "pyyol-gateway"} {
		raw, err := os.ReadFile(filepath.Join("..", "..", "docs", page))
		require.NoError(t, err)
		m := first.FindStringSubmatch(string(raw))
		require.NotNil(t, m, page)
		total, _ := catalogueCounts(t, protocol)
		assert.Equal(t, strconv.Itoa(total), m[1], "docs/%s: the rule count", page)
	}
}

// catalogueCounts is a protocol's catalogue size and its rules for agents.
func catalogueCounts(t *testing.T, protocol string) (total, agents int) {
	t.Helper()
	p, ok := protocols.Lookup(protocol)
	require.True(t, ok, protocol)
	cat, err := p.FolderCatalogue()
	require.NoError(t, err)
	for _, r := range cat.Rules {
		if r.ForAgents() {
			agents++
		}
	}
	return len(cat.Rules), agents
}

// TestForgeRateLimitIsOneValue: docs/forge.md states FORGE's rate limit
// with the figures of the catalogue's FORGE-REF-BUDGETS choice, which a
// reference test ties to the limiter's own constants: one value, stated
// alike wherever it is described.
func TestForgeRateLimitIsOneValue(t *testing.T) {
	t.Parallel()
	p, ok := protocols.Lookup("forge")
	require.True(t, ok)
	cat, err := p.FolderCatalogue()
	require.NoError(t, err)
	r, ok := cat.Rule("FORGE-REF-BUDGETS")
	require.True(t, ok)
	m := regexp.MustCompile(`(\d+) requests refilled at (\d+) a second`).FindStringSubmatch(r.Choice)
	require.NotNil(t, m, r.Choice)
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "forge.md"))
	require.NoError(t, err)
	doc := strings.Join(strings.Fields(string(raw)), " ")
	assert.Contains(t, doc, m[1]+"-request bursts refilled at "+m[2]+"/s per key")
	assert.NotRegexp(t, `(?i)rate limit of \d+`, doc, "no second figure for the same limit")
}

// TestEveryProtocolFlagIsInTheFlagTable: docs/running.md's table of
// protocol flags names every flag a protocol declares, with its protocol,
// so a flag added to the code cannot go undocumented.
func TestEveryProtocolFlagIsInTheFlagTable(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "running.md"))
	require.NoError(t, err)
	doc := string(raw)
	for _, p := range protocols.All() {
		for _, f := range p.Flags {
			row := regexp.MustCompile("(?m)^\\| [^|]*`--" + regexp.QuoteMeta(f.Name) + "\\b[^|]*\\| `([a-z-]+)` \\|")
			m := row.FindStringSubmatch(doc)
			if assert.NotNil(t, m, "docs/running.md has no row for --%s (%s)", f.Name, p.Name) {
				assert.True(t, strings.HasPrefix(m[1], strings.SplitN(p.Name, "-", 2)[0]), "--%s is %s's, the row says %s", f.Name, p.Name, m[1])
			}
		}
	}
}
