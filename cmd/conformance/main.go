// Command conformance checks deployments of AI-agent game protocols against
// their published contracts, serves reference engines for offline agent
// testing, and lists the rule catalogue. See README.md.
package main

import (
	"os"

	"github.com/agentgames/conformance/conformance/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
