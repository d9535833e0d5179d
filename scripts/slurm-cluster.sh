#!/usr/bin/env bash
# A real, throwaway Slurm cluster on this one machine, for tests and trying the job scripts of
# deploy/slurm/ out: MUNGE with its own key and socket, slurmctld, and one slurmd per node
# (`slurmd -N nK`, each on its own port), all of one slurm.conf in a folder of their own.
# Offline, root only (the daemons run as root, SlurmUser=root), no cgroups, nothing of the
# system's own Slurm or MUNGE (their configs, sockets and services) read or touched.
#
#   scripts/slurm-cluster.sh start DIR [NODES]  start NODES nodes (default 3: n1…n3) with DIR
#                                               (empty or absent) as their home; prints
#                                               `export SLURM_CONF=DIR/slurm.conf` once every
#                                               node is idle
#   scripts/slurm-cluster.sh stop DIR           stop the daemons started in DIR (the files stay)
#   scripts/slurm-cluster.sh run [NODES] -- CMD…  start NODES nodes in a temporary folder, run
#                                               CMD with SLURM_CONF set, stop and remove it
#                                               all however CMD ends; exits with CMD's code
#
# Needs slurm-wlm and munge (scripts/setup-slurm.sh installs them). Tested on Debian 12's
# Slurm 22.05 and MUNGE 0.5.15.
set -euo pipefail

PATH="$PATH:/usr/sbin:/sbin"
die() { echo "slurm-cluster: $*" >&2; exit 1; }
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }

# A TCP port nothing on this machine listens on, from a random start in 20000–59999.
free_port() {
  local p tries=0
  while :; do
    p=$((20000 + (RANDOM * 32768 + RANDOM) % 40000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      case " ${used_ports:-} " in *" $p "*) ;; *) used_ports="${used_ports:-} $p"; echo "$p"; return ;; esac
    fi
    tries=$((tries + 1))
    [ "$tries" -lt 200 ] || die "no free TCP port found"
  done
}

# Waits up to $2 seconds for the command $1 to succeed.
wait_for() {
  local what=$1 seconds=$2 i
  for ((i = 0; i < seconds * 10; i++)); do
    if eval "$what" >/dev/null 2>&1; then return 0; fi
    sleep 0.1
  done
  return 1
}

# The last lines of a daemon's log, for an error message.
log_tail() {
  if [ -f "$1" ]; then
    { echo "--- $1:"; tail -n 20 "$1"; } >&2
  fi
}

start() {
  local dir=$1 nodes=${2:-3}
  [ "$(id -u)" -eq 0 ] || die "start: needs root (the daemons run as root: SlurmUser=root)"
  [[ "$nodes" =~ ^[1-9][0-9]?$ ]] || die "start: NODES must be 1 to 99, not '$nodes'"
  for c in munged mungekey slurmctld slurmd sinfo scontrol; do
    command -v "$c" >/dev/null || die "no $c: run scripts/setup-slurm.sh (Slurm and MUNGE)"
  done
  if [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
    die "start: $dir is not empty (a cluster's folder is its own; stop it and remove it first)"
  fi
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  cluster_dir=$dir  # from here on, a failed start stops what it started
  # A Unix socket's path is at most 107 bytes.
  [ ${#dir} -le 80 ] || die "start: $dir is too long a path for the MUNGE socket (80 bytes at most)"
  chmod 700 "$dir"
  mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log"

  # MUNGE: its own key, socket, pid, seed and log; --force as root.
  mungekey --create --keyfile="$dir/munge/munge.key" >/dev/null 2>&1 ||
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 600 "$dir/munge/munge.key"
  munged --force --socket="$dir/munge/munge.sock" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munge/munged.pid" --seed-file="$dir/munge/munged.seed" \
    --log-file="$dir/log/munged.log" ||
    { log_tail "$dir/log/munged.log"; die "munged did not start"; }
  wait_for "munge --socket='$dir/munge/munge.sock' -n" 10 ||
    { log_tail "$dir/log/munged.log"; die "munged does not answer on $dir/munge/munge.sock"; }

  local host ctld_port
  host=$(hostname -s)
  used_ports=""
  ctld_port=$(free_port)
  {
    echo "# A throwaway cluster of scripts/slurm-cluster.sh: $nodes nodes on $host, all run as root."
    echo "ClusterName=perftest"
    echo "SlurmctldHost=$host(127.0.0.1)"
    echo "SlurmctldPort=$ctld_port"
    echo "SlurmUser=root"
    echo "SlurmdUser=root"
    echo "AuthType=auth/munge"
    echo "CredType=cred/munge"
    echo "AuthInfo=socket=$dir/munge/munge.sock"
    echo "StateSaveLocation=$dir/state"
    echo "SlurmdSpoolDir=$dir/spool/%n"
    echo "SlurmctldPidFile=$dir/slurmctld.pid"
    echo "SlurmdPidFile=$dir/slurmd-%n.pid"
    echo "SlurmctldLogFile=$dir/log/slurmctld.log"
    echo "SlurmdLogFile=$dir/log/slurmd-%n.log"
    echo "# No cgroups, no accounting: processes tracked through /proc, tasks not bound."
    echo "ProctrackType=proctrack/linuxproc"
    echo "TaskPlugin=task/none"
    echo "JobAcctGatherType=jobacct_gather/none"
    echo "AccountingStorageType=accounting_storage/none"
    echo "JobCompType=jobcomp/none"
    echo "MpiDefault=none"
    echo "SelectType=select/linear"
    echo "# Batch jobs scheduled at once (the default waits up to 3 s to gather them)."
    echo "SchedulerParameters=batch_sched_delay=0"
    echo "PropagateResourceLimits=NONE"
    echo "ReturnToService=2"
    echo "SlurmdParameters=config_overrides"
    echo "MailProg=/bin/true"
    echo "SlurmdTimeout=30"
    echo "InactiveLimit=0"
    echo "KillWait=5"
    echo "MinJobAge=600"
    local i port
    for ((i = 1; i <= nodes; i++)); do
      port=$(free_port)
      echo "NodeName=n$i NodeHostname=$host NodeAddr=127.0.0.1 Port=$port CPUs=1 State=UNKNOWN"
    done
    echo "PartitionName=all Nodes=n[1-$nodes] Default=YES MaxTime=INFINITE State=UP"
    [ -z "${SLURM_CLUSTER_EXTRA_CONF:-}" ] || printf '%s\n' "$SLURM_CLUSTER_EXTRA_CONF"
  } >"$dir/slurm.conf"
  export SLURM_CONF="$dir/slurm.conf"

  slurmctld -i -f "$SLURM_CONF" ||
    { log_tail "$dir/log/slurmctld.log"; die "slurmctld did not start"; }
  wait_for "scontrol ping | grep UP > /dev/null" 20 ||
    { log_tail "$dir/log/slurmctld.log"; die "slurmctld does not answer on port $ctld_port"; }
  for ((i = 1; i <= nodes; i++)); do
    slurmd -f "$SLURM_CONF" -N "n$i" ||
      { log_tail "$dir/log/slurmd-n$i.log"; die "slurmd -N n$i did not start"; }
  done
  # Every node registered and idle: the partition takes jobs.
  if ! wait_for "[ \"\$(sinfo -h -N -t idle -o %N | sort -u | wc -l)\" -eq $nodes ]" 30; then
    sinfo -N -l >&2 || true
    log_tail "$dir/log/slurmctld.log"
    for ((i = 1; i <= nodes; i++)); do log_tail "$dir/log/slurmd-n$i.log"; done
    die "the $nodes nodes are not all idle after 30 s"
  fi
  echo "export SLURM_CONF=$SLURM_CONF"
}

stop() {
  local dir=$1 f pid pids=()
  [ -f "$dir/slurm.conf" ] || die "stop: $dir holds no cluster (no slurm.conf)"
  # Every daemon told to end at once (each takes a second or two), then waited for: 10 s,
  # then killed. Only a process whose command line names this folder is ours (a stale pid
  # file may hold a pid now reused).
  for f in "$dir"/slurmd-*.pid "$dir/slurmctld.pid" "$dir/munge/munged.pid"; do
    [ -f "$f" ] || continue
    pid=$(cat "$f")
    if [ -n "$pid" ] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -F "$dir/" > /dev/null &&
      kill "$pid" 2>/dev/null; then
      pids+=("$pid")
    fi
    rm -f "$f"
  done
  for pid in "${pids[@]}"; do
    wait_for "! kill -0 $pid" 10 || kill -9 "$pid" 2>/dev/null || true
  done
}

case "${1:-}" in
  start)
    if [ $# -lt 2 ] || [ $# -gt 3 ]; then usage; fi
    cluster_dir=""
    trap 'rc=$?; if [ $rc -ne 0 ] && [ -n "$cluster_dir" ] && [ -f "$cluster_dir/slurm.conf" ]; then stop "$cluster_dir" || true; fi' EXIT
    start "$2" "${3:-3}"
    ;;
  stop)
    [ $# -eq 2 ] || usage
    stop "$2"
    ;;
  run)
    shift
    nodes=3
    if [ "${1:-}" != "--" ]; then nodes=${1:-}; shift || true; fi
    if [ "${1:-}" != "--" ] || [ $# -lt 2 ]; then usage; fi
    shift
    tmp=$(mktemp -d /tmp/slurm-cluster.XXXXXX)
    rmdir "$tmp"
    trap 'stop "$tmp" 2>/dev/null || true; rm -rf "$tmp"' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    start "$tmp" "$nodes" >/dev/null
    export SLURM_CONF="$tmp/slurm.conf"
    set +e
    "$@"
    rc=$?
    set -e
    exit "$rc"
    ;;
  *) usage ;;
esac
