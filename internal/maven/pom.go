package maven

import (
	"fmt"
	"strings"
)

// renderPom returns a throw-away pom.xml whose only purpose is to declare the
// requested artifacts as dependencies, so that mvn can copy them and their
// runtime dependencies. Coordinates are validated by parseCoordinate and need
// no XML escaping.
func renderPom(key string, coords []coordinate) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 http://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>prodlab.resolve</groupId>
`)
	fmt.Fprintf(&b, "  <artifactId>%s</artifactId>\n", key)
	b.WriteString(`  <version>0</version>
  <packaging>pom</packaging>
  <dependencies>
`)
	for _, c := range coords {
		fmt.Fprintf(&b, "    <dependency>\n      <groupId>%s</groupId>\n      <artifactId>%s</artifactId>\n      <version>%s</version>\n    </dependency>\n",
			c.Group, c.Artifact, c.Version)
	}
	b.WriteString("  </dependencies>\n</project>\n")
	return b.String()
}
