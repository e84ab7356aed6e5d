# shellcheck shell=bash
# Host test helpers, sourced by the host test scripts (cli-test.sh,
# check-fields-test.sh, headers-only-test.sh, install-test.sh,
# replay-test.sh) after common.sh: every check is a KTAP result of
# guest/ktap.sh, the reporter the guest tests share; summary prints the
# totals and the "N passed, N failed" line and fails unless all passed.
# shellcheck source=guest/ktap.sh
. "$SW_TOP/guest/ktap.sh"
ok() { ktap_ok "$@"; }
# skip DESCRIPTION: a check that cannot run here, counted, never a pass
skip() { ktap_skip "$@"; }
not_ok() { ktap_not_ok "$@"; }
# check DESCRIPTION COMMAND...: passes when COMMAND succeeds
check() { ktap_check "$@"; }
summary() { ktap_end; }
