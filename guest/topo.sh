# The guest's topology as the scheduler sees it (issue 61's shapes at
# size, scripts/qemulib.sh sw_topo_args). busybox sh. Usage:
#   topo.sh CPUS LLC NODES
# prints CPU 0's L3 sharing, its scheduler domains (name, flags' LLC bit,
# span weight from /proc/schedstat) as TOPO lines, and checks the guest
# has CPUS CPUs, an LLC (L3 and scheduler) of LLC CPUs and NODES nodes.
. ./lib.sh
cpus=$1 llc=$2 nodes=$3
# weight MASK: the CPUs in a /proc/schedstat mask (hex words, commas)
weight() {
	echo "$1" | awk '{ n = 0; s = $0; gsub(",", "", s)
		for (i = 1; i <= length(s); i++) {
			d = index("0123456789abcdef", substr(s, i, 1)) - 1
			while (d) { n += d % 2; d = int(d / 2) }
		}
		print n }'
}
# nodes_here: how many NUMA nodes the guest has
nodes_here() { set -- /sys/devices/system/node/node[0-9]*; echo $#; }
echo 1 >/sys/kernel/debug/sched/verbose 2>/dev/null
l3=$(cat /sys/devices/system/cpu/cpu0/cache/index3/shared_cpu_list 2>/dev/null)
echo "TOPO cpus $(nproc) nodes $(nodes_here) l3 ${l3:-none}"
D=/sys/kernel/debug/sched/domains/cpu0
sd_llc=0
for m in $(awk '$1 == "cpu0" { f = 1; next } /^cpu/ { f = 0 } f && /^domain/ { print $2 }' /proc/schedstat); do
	i=${i:-0}
	name=$(cat "$D/domain$i/name" 2>/dev/null)
	flags=$(cat "$D/domain$i/flags" 2>/dev/null)
	w=$(weight "$m")
	echo "TOPO domain$i ${name:-?} span $w flags $flags"
	case $flags in *SD_SHARE_LLC*|*SD_SHARE_PKG_RESOURCES*) sd_llc=$w ;; esac
	i=$((i + 1))
done
check "$cpus CPUs" [ "$(nproc)" -eq "$cpus" ]
check "$nodes NUMA nodes" [ "$(nodes_here)" -eq "$nodes" ]
check "the scheduler's LLC of CPU 0 spans $llc CPUs (got $sd_llc)" [ "$sd_llc" -eq "$llc" ]
summary
