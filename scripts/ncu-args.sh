# scripts/ncu-args.sh — sourced by the Nsight Compute scripts (ncu-*.sh): checks their
# arguments, "path/to/satdof [output-dir]", and that ncu is there; sets satdof and outdir
# (default: a temporary directory).
if [[ $# -lt 1 || ! -x "$1" ]]; then
  echo "usage: $0 path/to/satdof [output-dir]" >&2
  exit 2
fi
satdof="$1"
outdir="${2:-$(mktemp -d)}"
mkdir -p "$outdir"
command -v ncu >/dev/null || { echo "$0: ncu (Nsight Compute) not found in PATH" >&2; exit 2; }
