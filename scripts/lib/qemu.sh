# Sourced, after abi_load (scripts/lib/abi.sh), by the scripts that boot
# a kernel of the ABI under qemu-system (make check-target, make
# check-wrapper), with the machine of abis.table: the measurements
# behind each are in BASE-2.36.md, beside the checkout.
#
#   qemu_install      install qemu-system for the ABI, and cpio
#   qemu_initramfs DIR FILE
#                     make FILE, an initramfs of the tree DIR
#   qemu_boot KERNEL INITRAMFS LOG SMP PARAMETERS [OPTION...]
#                     run (exec: call it in the background, or as a
#                     subshell's last command) the ABI's qemu-system on
#                     KERNEL with INITRAMFS and SMP CPUs, its console in
#                     LOG, no network card (the default one's boot ROM,
#                     ipxe-qemu, is not installed everywhere, and qemu
#                     stops without it), the console, /init and the
#                     table's parameters on the kernel's command line,
#                     then PARAMETERS; OPTIONs go to qemu.  Where the
#                     shell variable qemu_limit is set (not from the
#                     environment), qemu is stopped after that many
#                     seconds (timeout's exit status).  It does not
#                     inherit descriptor 9, the lock of the object
#                     directory.
# shellcheck shell=sh
# The abi_ variables are abi_load's:
# shellcheck disable=SC2154

qemu_limit=

qemu_install ()
{
  # shellcheck disable=SC2046
  scripts/build/install-deps.sh $(echo "$abi_qemu_package" | tr , ' ') \
    qemu-system-data cpio >&2
}

qemu_initramfs ()
{
  (cd "$1" && find . -mindepth 1 | sed 's|^\./||' \
     | cpio -o -H newc --quiet) > "$2" \
    || die "cannot make the initramfs $2"
}

qemu_boot ()
{
  kernel=$1 initramfs=$2 log=$3 smp=$4 parameters=$5
  shift 5
  # shellcheck disable=SC2086
  exec ${qemu_limit:+timeout --foreground "$qemu_limit"} "$abi_qemu" \
    $abi_machine \
    ${abi_cpu:+-cpu "$abi_cpu"} -m "$abi_mem" -smp "$smp" -nographic \
    -no-reboot -nic none -kernel "$kernel" -initrd "$initramfs" "$@" \
    -append "${abi_console:+console=$abi_console }rdinit=/init panic=-1\
${abi_append:+ $abi_append} $parameters" \
    < /dev/null > "$log" 2>&1 9>&-
}
