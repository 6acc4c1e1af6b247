// Command etcd is etcd's own entry point, built from the same module graph as Kubernetes
// so the server and the API server's client are one consistent release (v3.6).
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
