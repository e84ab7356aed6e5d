# Signed modules under enforcement (make check step sig-debug): the debug
# kernel (CONFIG_MODULE_SIG, trusting the project's throwaway test
# certificate) booted with "lockdown=integrity module.sig_enforce=1", as a
# Secure Boot machine runs Debian's kernel. The copy of smartwake signed
# with the test key (/lib/smartwake/smartwake.ko) loads without the
# unsigned-module taint, its stats are readable, it unloads; the unsigned
# build (/lib/smartwake/testing/smartwake.ko) and a copy signed with a key
# the kernel does not know (/lib/smartwake/foreign/smartwake.ko) are
# refused with the kernel's messages, and nothing is left loaded.
. ./lib.sh
LD=/sys/kernel/security/lockdown
UNSIGNED=$SW_TKO/smartwake.ko
WRONGKEY=/lib/smartwake/foreign/smartwake.ko

[ -e $LD ] || mount -t securityfs none /sys/kernel/security 2>/dev/null
echo "  lockdown: $(cat $LD 2>&1)"
echo "  cmdline: $(cat /proc/cmdline)"
check "/sys/kernel/security/lockdown reads [integrity]" grep -q '\[integrity\]' $LD
check "module.sig_enforce=1 is in force" \
	eval '[ "$(cat /sys/module/module/parameters/sig_enforce)" = Y ]'
check "the three copies are in the guest" \
	eval '[ -f /lib/smartwake/smartwake.ko ] && [ -f $UNSIGNED ] && [ -f $WRONGKEY ]'

loaded() { grep -q '^smartwake ' /proc/modules; }

# refused FILE DMESG-TEXT WHAT (eval'd checks run inside check(): its
# positional parameters, so the text goes through a variable)
refused() {
	_msg=$2
	_n=$(dmesg | grep -c "$_msg")
	_out=$(insmod "$1" 2>&1)
	_rc=$?
	echo "  insmod $3: rc $_rc: $_out"
	check "$3: insmod fails" [ "$_rc" -ne 0 ]
	check "$3: insmod says \"Key was rejected by service\"" \
		eval 'echo "$_out" | grep -q "Key was rejected by service"'
	check "$3: the kernel logs \"$2\"" \
		eval '[ "$(dmesg | grep -c "$_msg")" -gt "$_n" ]'
	check "$3: not loaded" eval '! loaded'
}
refused $UNSIGNED "Loading of unsigned module is rejected" "unsigned module"
refused $WRONGKEY "Loading of module with unavailable key is rejected" \
	"module signed with an unknown key"
dmesg | grep -E 'Loading of .* is rejected' | sed 's/^/  dmesg: /'

check "the module signed with the trusted test key loads" sw_insmod
check "it is not tainted unsigned (E): /sys/module/smartwake/taint has no E" \
	eval '! grep -q E /sys/module/smartwake/taint'
check "no \"module verification failed\" for it" \
	eval '! dmesg | grep -q "smartwake: module verification failed"'
check "stats readable under lockdown" eval 'grep -q "^wakeups " $SW_DBG/stats'
# LOCKDOWN_DEBUGFS: files with write operations do not open at all.
check "a debugfs knob write is refused under lockdown" eval '! set_knob policy smartwake'
dmesg | grep -m 2 'Lockdown:' | sed 's/^/  dmesg: /'
# The lockdown-proof control plane, where the module has it.
P=/sys/module/smartwake/parameters/policy
if [ -w $P ]; then
	check "policy=smartwake through $P" eval 'echo smartwake >$P'
	wakeload pipe -p 1 -t 1 >/dev/null 2>&1
	check "the module's wakeup path ran" gt "$(stat wakeups)" 0
	check "policy=stock through $P" eval 'echo stock >$P'
else
	skip "no $P in this build: no wakeup load under the policy"
fi
check "rmmod" rmmod smartwake
check "nothing left loaded" eval '! loaded'
check "kernel log clean" dmesg_clean
summary
