#!/usr/bin/env bash
# make demo: boot the stock Debian 6.12 cloud kernel in a QEMU guest (4 CPUs,
# one LLC), load smartwake, run a 1:N dispatcher/worker load under several
# settings and print throughput and the counters side by side.
#
# Usage: scripts/demo.sh [--topo smp4|numa2] [SECONDS_PER_RUN]
. "$(dirname "$0")/common.sh"
topo=smp4
case ${1:-} in
-h|--help) sw_help "$0"; exit 0 ;;
--topo) topo=$2; shift 2 ;;
esac
exec "$SW_TOP/scripts/guest-run.sh" --topo "$topo" --timeout 600 demo.sh "${1:-3}"
