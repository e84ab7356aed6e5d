# The demo: load smartwake, run a wakeup load under several settings and
# print each setting's throughput and counters side by side.
. ./lib.sh
secs=${1:-3}
sw_insmod || { echo "insmod failed"; dmesg | tail; exit 1; }
echo
echo "== hooks and observers at the default knobs ($SW_DBG/hooks) =="
cat $SW_DBG/hooks
echo
echo "== knobs ($SW_DBG/knobs) =="
cat $SW_DBG/knobs

# name|knob=value ... (knobs absent from this build are skipped)
settings="hook-off|enabled=0
stock|enabled=1 policy=stock
smartwake|policy=smartwake wake_wide=mainline sis_filter=0
wide-off|policy=smartwake wake_wide=off
wide-v2013|policy=smartwake wake_wide=v2013
sis-filter|policy=smartwake wake_wide=mainline sis_filter=1
shadow|policy=shadow sis_filter=0
shadow-v2013|policy=shadow wake_wide=v2013"
load="wakeload disp -d 2 -w 6 --switch -t $secs"
echo
echo "== load: $load =="
names=""
echo "$settings" | while IFS='|' read -r name kv; do
	for a in $kv; do
		k=${a%%=*}
		[ -e "$SW_DBG/$k" ] || continue 2
		set_knob "$k" "${a#*=}" || { echo "cannot set $a"; continue 2; }
	done
	echo 1 >$SW_DBG/reset
	r=$($load | sed -n 's/.*ops_per_sec=\([0-9.]*\).*/\1/p')
	printf '%-12s %10s ops/s   (%s)\n' "$name" "$r" "$kv"
	{ echo "ops_per_sec $r"; cat $SW_DBG/stats; } >"/tmp/stats.$name"
	echo "$name" >>/tmp/names
done
set_knob enabled 1
echo
echo "== stats after each setting (counters reset before each run) =="
names=$(cat /tmp/names)
printf '%-28s' counter
for n in $names; do printf ' %12s' "$n"; done
echo
# every line any setting printed; a derived metric with nothing measured
# has no line in stats and shows as n/a
for c in $(for n in $names; do awk '{ print $1 }' "/tmp/stats.$n"; done | awk '!seen[$1]++'); do
	printf '%-28s' "$c"
	for n in $names; do
		printf ' %12s' "$(awk -v c="$c" '$1 == c { v = $2 } END { print (v == "" ? "n/a" : v) }' "/tmp/stats.$n")"
	done
	echo
done
echo "(n/a: undefined, nothing measured; the sis_*_efficiency and success lines are the 2022 thread's NO_SIS_UTIL metrics, see Documentation)"
rmmod smartwake
dmesg_clean && echo "kernel log: clean" || echo "kernel log: see above"
