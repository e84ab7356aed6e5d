// SPDX-License-Identifier: GPL-2.0
/*
 * sw_klp_probe: a test-only module that calls a sealed, unexported kernel
 * function with a direct call, through a livepatch-format relocation
 * (issue 36, option (a)). scripts/klp-relocs.py moves the relocations
 * against ".klp.sym.vmlinux.NAME,0" symbols into a .klp.rela.vmlinux.*
 * section after the build; the module loader resolves them through
 * kallsyms at load time (klp_apply_section_relocs()). A direct call is
 * not checked by IBT, so the target's ENDBR64 may be sealed.
 *
 * At load it calls kallsyms_lookup_name("jiffies") (unexported since
 * 5.7, its ENDBR64 sealed on Debian's IBT kernels), compares the answer
 * with &jiffies and prints one line; the load fails if the two differ.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/module.h>

/*
 * The symbol name is the livepatch format, so the compiler emits the
 * relocation against it; weak, so that modpost does not refuse an
 * undefined, unexported symbol (it only warns about strong ones).
 */
extern unsigned long sw_klp_kallsyms_lookup_name(const char *name)
	__asm__("\".klp.sym.vmlinux.kallsyms_lookup_name,0\"") __weak;

static int __init sw_klp_probe_init(void)
{
	unsigned long addr;

	/* not converted (scripts/klp-relocs.py): a call to address 0 */
	if (!sw_klp_kallsyms_lookup_name)
		return -ENOEXEC;
	addr = sw_klp_kallsyms_lookup_name("jiffies");
	pr_info("kallsyms_lookup_name(\"jiffies\") = %s by a direct call\n",
		addr == (unsigned long)&jiffies ? "&jiffies" : "a wrong address");
	return addr == (unsigned long)&jiffies ? 0 : -EINVAL;
}

static void __exit sw_klp_probe_exit(void)
{
}

module_init(sw_klp_probe_init);
module_exit(sw_klp_probe_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("smartwake test: a direct call through a livepatch relocation");
MODULE_INFO(livepatch, "Y");
