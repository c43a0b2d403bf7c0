module github.com/wormlab/wormlab

go 1.24

require (
	github.com/crillab/gophersat v1.4.0
	github.com/go-air/gini v1.0.4
	github.com/stretchr/testify v1.12.1
	pgregory.net/rapid v1.3.0
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
