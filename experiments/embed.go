// Package experiments embeds the built-in experiment files so that
// `prodlab run NAME` works from any directory.
package experiments

import "embed"

// FS holds every *.yaml file of this directory.
//
//go:embed *.yaml
var FS embed.FS
