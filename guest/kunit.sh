# Run the policy core's KUnit suites (debug kernel, CONFIG_KUNIT=y) and
# print their KTAP between markers for kunit.py parse on the host.
. ./lib.sh
check "KUnit module loads" insmod /lib/smartwake/smartwake_policy_kunit.ko
echo "SMARTWAKE-KTAP-BEGIN"
dmesg | sed -n '/KTAP version/,$p'
echo "SMARTWAKE-KTAP-END"
cases_ok=$(dmesg | grep -cE '^\[[ 0-9.]+\] +ok [0-9]+ ')
cases_bad=$(dmesg | grep -cE '^\[[ 0-9.]+\] +not ok [0-9]+ ')
echo "  KTAP: $cases_ok ok lines, $cases_bad not ok lines"
check "at least 60 KUnit results are ok" gt "$cases_ok" 59
check "no KUnit result is not ok" eq "$cases_bad" 0
check "KUnit module unloads" rmmod smartwake_policy_kunit
check "kernel log clean" dmesg_clean
summary
