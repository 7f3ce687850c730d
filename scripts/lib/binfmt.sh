# Sourced by the scripts that run programs of another architecture on
# this machine's kernel through qemu-user-static (make check-target
# EMU=user, the roots of other architectures of make deb-test):
#
#   binfmt_enable CPU
#                     install qemu-user-static, mount binfmt_misc and
#                     register its entry qemu-CPU (qemu-user-static's
#                     name for the CPU: abis.table's user_cpu) as
#                     systemd-binfmt would at boot, unless they are;
#                     that lasts, for every user of this machine, until
#                     it reboots; die if the entry is disabled
#
# It calls die (scripts/lib/common.sh).
# shellcheck shell=sh

binfmt_enable ()
{
  binfmt=/proc/sys/fs/binfmt_misc
  [ -f "/usr/lib/binfmt.d/qemu-$1.conf" ] \
    || DEBIAN_FRONTEND=noninteractive apt-get install -y qemu-user-static \
	 > /dev/null || die "cannot install qemu-user-static"
  [ -f "$binfmt/register" ] || mount -t binfmt_misc binfmt_misc "$binfmt" \
    || die "cannot mount binfmt_misc on $binfmt"
  if [ ! -f "$binfmt/qemu-$1" ]; then
    # The entry as systemd-binfmt would register it at boot.
    conf=/usr/lib/binfmt.d/qemu-$1.conf
    [ -f "$conf" ] || die "qemu-user-static has no $conf"
    grep '^:' "$conf" > "$binfmt/register" \
      || die "cannot register $conf with binfmt_misc"
  fi
  grep -qx enabled "$binfmt/qemu-$1" \
    || die "binfmt_misc's qemu-$1 is disabled: echo 1 > $binfmt/qemu-$1"
}
