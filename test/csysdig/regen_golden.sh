#!/bin/sh
# regen_golden.sh: regenerate golden/<trace>/<view>.txt, the reference's
# `csysdig -r TRACE --raw -v VIEW` (rows sorted: the reference's sort is not
# stable) for every stock view of /usr/share/sysdig/chisels except the
# Kubernetes/Mesos/Marathon ones, on every trace of test/traces.

here=$(cd "$(dirname "$0")" && pwd)
ref=${CSYSDIG_REF:-/usr/bin/csysdig}
views=${CSYSDIG_REF_VIEWS:-/usr/share/sysdig/chisels}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"	# the reference also reads ./chisels
for t in "$here"/../traces/*.scap; do
	tn=$(basename "$t" .scap)
	mkdir -p "$here/golden/$tn"
	for f in "$views"/v_*.lua; do
		v=$(basename "$f" .lua | sed 's/^v_//')
		case $v in kubernetes*|mesos*|marathon*) continue ;; esac
		out=$("$ref" -r "$t" --raw -v "$v" 2>&1 </dev/null; echo "rc=$?")
		# views the reference leaves out of csysdig (nocsysdig, view_infoz)
		case $out in *"not found"*) continue ;; esac
		printf "%s\n" "$out" | LC_ALL=C sort > "$here/golden/$tn/$v.txt"
	done
done
