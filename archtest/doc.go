// Package archtest holds no code, only tests of the kit's architecture:
// which packages may import which, that every failure names its rule, that
// every protocol's world embeds the per-scenario base, that no source file
// grows past 500 lines. It exists so that the rules the README states
// (cmd -> conformance -> reference; an engine never imports net/http) fail
// a build the day someone breaks them.
package archtest
