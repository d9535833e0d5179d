# shellcheck shell=bash
# Sourced by scripts/setup.sh and scripts/setup-slurm.sh: what both need to find and install
# Debian/Ubuntu packages.

# Whether command $1 is on the PATH.
have() { command -v "$1" >/dev/null 2>&1; }

# Whether Debian package $1 is installed.
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

# install_packages TAG PACKAGE…: installs the packages with apt-get (through sudo where not
# root), quietly, without recommends; TAG names the script in its messages. Nothing to do
# without packages.
install_packages() {
  local tag=$1
  shift
  [ $# -eq 0 ] && return 0
  echo "$tag: installing $*" >&2
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    have sudo || { echo "$tag: need root (or sudo) to install: $*" >&2; exit 1; }
    sudo="sudo"
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
