. ./lib.sh
check "insmod" sw_insmod
check "hook listed in enabled_functions" hooked select_task_rq_fair
cat /sys/kernel/tracing/enabled_functions
cat $SW_DBG/stats
sleep 1
cat $SW_DBG/stats
cat $SW_DBG/knobs
check "rmmod" rmmod smartwake
check "hook gone" eval '! hooked select_task_rq_fair'
check "kernel log clean" dmesg_clean
summary
