# Sourced by the scripts of scripts/container/ (after
# scripts/lib/common.sh): what they say about container runtime $rt,
# podman or docker, Debian 12's.
#
#   cli      Debian's client of the runtime: /usr/bin/podman or
#            /usr/bin/docker (another docker earlier in PATH, as some
#            machines have, would talk another API to the engine)
#   packages the Debian packages it needs, for
#            scripts/build/install-deps.sh (which installs without
#            recommends): podman with catatonit, the init of --init,
#            and runc, which container.sh takes where crun refuses the
#            host; docker.io
#   image    the image imported from build/debian-root/bookworm.tar
#   box      the name of the long-running container the tests run in
#   spool    build/container/$rt of the checkout (the one the script
#            runs from, whatever the directory it runs in): the run's
#            own files, which the container sees at the same path (the
#            checkout is mounted there)
# shellcheck shell=sh
# The variables it sets are for the scripts that source it:
# shellcheck disable=SC2034

case ${rt-} in
  podman) packages="podman catatonit runc" ;;
  docker) packages=docker.io ;;
  *) die "RUNTIME=${rt-}: podman or docker" ;;
esac
cli=/usr/bin/$rt
image=pidfd-check-root:bookworm
box=pidfd-check-$rt
spool=$(cd "$(dirname "$0")/../.." && pwd -P)/build/container/$rt
