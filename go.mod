module github.com/wormlab/wormlab

go 1.26.8
