// Package deploy holds no code: it is the home of prodlab's deployment
// recipes for a Trogdor fleet (docs/distributed.md, "Deployment") and of the
// test that keeps them valid.
//
//   - trogdor/trogdor.json.example: a Trogdor platform config for a
//     coordinator and three load hosts beside an existing Kafka installation.
//   - kubernetes/*.yaml: a coordinator Deployment and a StatefulSet of agents
//     on the official apache/kafka image, their Services, and the ConfigMap
//     holding trogdor.json.
//
// deploy_test.go parses every manifest and both Trogdor configs and checks
// that they agree with one another (node names and host names against the
// StatefulSet's pods and Services, ports against container and Service
// ports, commands against trogdor.sh's flags, prodlab-worker.jar on the
// class path), so an edit to one file that breaks the fleet fails `go test`
// instead of a deployment.
package deploy
