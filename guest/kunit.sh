# Run the policy core's KUnit suites (debug kernel, CONFIG_KUNIT=y) and
# print their KTAP between markers for kunit.py parse on the host.
. ./lib.sh
# Only what the module printed: the built-in KUnit prints an empty plan at boot.
skip=$(dmesg | wc -l)
check "KUnit module loads" insmod /lib/smartwake/smartwake_policy_kunit.ko
dmesg | tail -n +$((skip + 1)) >/tmp/ktap
echo "SMARTWAKE-KTAP-BEGIN"
sed -n '/KTAP version/,$p' /tmp/ktap
echo "SMARTWAKE-KTAP-END"
cases_ok=$(grep -cE '^\[[ 0-9.]+\] +ok [0-9]+ ' /tmp/ktap)
cases_bad=$(grep -cE '^\[[ 0-9.]+\] +not ok [0-9]+ ' /tmp/ktap)
echo "  KTAP: $cases_ok ok lines, $cases_bad not ok lines"
check "KUnit results are ok" gt "$cases_ok" 0
check "no KUnit result is not ok" eq "$cases_bad" 0
check "KUnit module unloads" rmmod smartwake_policy_kunit
check "kernel log clean" dmesg_clean
summary
