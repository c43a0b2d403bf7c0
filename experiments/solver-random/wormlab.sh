# Sourced by the scripts of this folder after they set out (their output
# folder): makes out, and sets here (the repository) and wl (the wormlab
# binary: $WORMLAB, or one built from the repository into out).
here=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
wl=${WORMLAB:-}
if [ -z "$wl" ]; then
	wl=$out/wormlab
	(cd "$here" && go build -o "$wl" ./cmd/wormlab)
fi
