#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, for tests: munged, slurmctld
# and slurmd (Debian's packages) in the foreground of background jobs, on
# localhost only, every file under DIR. Needs root (slurmd runs jobs as their
# user).
#
#   scripts/slurm-local.sh start DIR   writes DIR/slurm.conf, starts the daemons, waits until the node is idle
#   scripts/slurm-local.sh stop DIR    stops them
# Clients then need SLURM_CONF=DIR/slurm.conf.
set -euo pipefail
action=${1:?start or stop}
dir=$(realpath -m "${2:?a folder}")
# slurm.conf takes paths unquoted, and a space, '#' or '=' would change its
# meaning: such a folder is refused, not written into the file.
case $dir in
  *[!A-Za-z0-9._/+-]*)
    echo "slurm-local.sh: folder '$dir' has characters slurm.conf cannot hold (use letters, digits, . _ / + -)" >&2
    exit 2 ;;
esac

# A daemon's pid file holds its pid and its start time (field 22 of
# /proc/PID/stat): stop signals a process only when both still match, so a
# pid reused by another process since, or a pid file written by someone
# else, is never killed.
started_at() { awk '{ print $22 }' "/proc/$1/stat" 2>/dev/null || true; }
remember() {  # daemon pid
  echo "$2 $(started_at "$2")" >"$dir/$1.pid"
}

stop() {
  for daemon in slurmd slurmctld munged; do
    if [ -f "$dir/$daemon.pid" ]; then
      read -r pid start < "$dir/$daemon.pid" || true
      rm -f "$dir/$daemon.pid"
      case $pid in '' | *[!0-9]*) continue ;; esac
      [ -n "${start:-}" ] && [ "$(started_at "$pid")" = "$start" ] || continue
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      [ "$(started_at "$pid")" = "$start" ] && kill -9 "$pid" 2>/dev/null || true
    fi
  done
}

if [ "$action" = stop ]; then
  stop
  exit 0
fi
[ "$action" = start ] || { echo "slurm-local.sh: expected start or stop, got '$action'" >&2; exit 2; }

mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
chmod 711 "$dir/munge"
head -c 1024 /dev/urandom >"$dir/munge/munge.key"
chmod 400 "$dir/munge/munge.key"
# Ports of our own (not Slurm's defaults, which a real cluster may use), from the folder's name.
base=$((20000 + $(printf '%s' "$dir" | cksum | cut -d' ' -f1) % 20000))
host=$(hostname -s)
cat >"$dir/slurm.conf" <<EOF
ClusterName=prmkit-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$base
SlurmdPort=$((base + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid.slurm
SlurmdPidFile=$dir/slurmd.pid.slurm
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$dir/slurm.conf"

munged --foreground --force --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
  --log-file="$dir/munged.log" --pid-file="$dir/munge/munged.pid" --seed-file="$dir/munge/munged.seed" \
  >>"$dir/munged.out" 2>&1 &
remember munged $!
for _ in $(seq 100); do [ -S "$dir/munge/munge.socket" ] && break; sleep 0.1; done
slurmctld -D -i -f "$dir/slurm.conf" >>"$dir/slurmctld.out" 2>&1 &
remember slurmctld $!
slurmd -D -f "$dir/slurm.conf" >>"$dir/slurmd.out" 2>&1 &
remember slurmd $!
for _ in $(seq 600); do
  state=$(sinfo -h -o %T 2>/dev/null || true)
  if [ "$state" = idle ]; then exit 0; fi
  sleep 0.1
done
echo "slurm-local.sh: the node did not come up (state '${state:-none}'); logs in $dir" >&2
tail -n 20 "$dir"/*.log >&2 || true
stop
exit 1
