#!/usr/bin/env bash
# Installs what the Slurm test (tests/slurm.rs) and scripts/slurm-cluster.sh need and is
# missing, on Debian/Ubuntu: Slurm's controller, node daemon and client commands (slurm-wlm:
# slurmctld, slurmd, sbatch, srun, scontrol, sinfo) and MUNGE, its authentication (munge:
# munged, mungekey). No service is started or enabled: scripts/slurm-cluster.sh runs its own
# daemons in a temporary folder. Does nothing when everything is present.
# Other systems: prints what to install and fails.
set -euo pipefail

# shellcheck source=scripts/lib/packages.sh
source "$(dirname "$0")/lib/packages.sh"

missing=()
if have apt-get && have dpkg-query; then
  for p in slurm-wlm munge; do
    have_pkg "$p" || missing+=("$p")
  done
else
  for c in slurmctld slurmd sbatch srun scontrol munged; do
    have "$c" || PATH="$PATH:/usr/sbin:/sbin" have "$c" || missing+=("$c")
  done
  if [ ${#missing[@]} -ne 0 ]; then
    echo "setup-slurm: please install Slurm (slurmctld, slurmd, the client commands) and MUNGE; missing: ${missing[*]}" >&2
    exit 1
  fi
  exit 0
fi

# The packages' own services are not used: scripts/slurm-cluster.sh runs its daemons on a
# socket and ports of its own (in a container none starts; on a host with systemd, the
# system's munged may, and slurmctld/slurmd wait for an /etc/slurm/slurm.conf).
install_packages setup-slurm "${missing[@]}"
