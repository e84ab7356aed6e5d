. ./lib.sh
sw_insmod
set_knob policy smartwake
for l in "pipe -p 2" "pipe -p 4" "msg" "disp -d 1 -w 8" "disp -d 2 -w 8 --switch"; do
	echo 1 >$SW_DBG/reset
	wakeload $l -t 2 >/dev/null
	snap
	echo "LOAD $l: wakeups $(sv wakeups) affine $(sv affine_attempts) pulls $(sv affine_pulls) sis $(sv sis_calls)"
done
set_knob policy stock
rmmod smartwake
