#!/usr/bin/env bash
# A private single-node Slurm cluster for the tests (test/cluster/slurm-array.test.ts), on this host:
#   scripts/slurm-cluster.sh start DIR   installs Debian's slurmctld, slurmd, slurm-client and munge if
#                                        missing (as root), starts munged, slurmctld and slurmd with their
#                                        state, sockets, logs and config in DIR, and waits for the node
#   scripts/slurm-cluster.sh stop DIR    stops the daemons it started (by the pids recorded in DIR), only those
# Nothing outside DIR is configured: the daemons use their own ports (16817, 16818), munge socket and key,
# and a client reaches this cluster only with SLURM_CONF=DIR/slurm.conf (printed by start). No systemd:
# the daemons run in the foreground (-D), detached from this shell. Exit 3 when Slurm cannot be installed.
# The Slurm tests run on it with PERCEPTRON_LAB_TEST_SLURM_CONF=DIR/slurm.conf (npm run test:slurm).
set -euo pipefail
action="${1:?usage: slurm-cluster.sh start|stop DIR}"
dir="$(mkdir -p "${2:?usage: slurm-cluster.sh start|stop DIR}" && cd "$2" && pwd)"

stop() {
  for name in slurmd slurmctld munged; do
    if [ -f "$dir/$name.pid" ]; then
      pid="$(cat "$dir/$name.pid")"
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
      rm -f "$dir/$name.pid"
    fi
  done
}

if [ "$action" = stop ]; then
  stop
  exit 0
fi
[ "$action" = start ] || { echo "usage: slurm-cluster.sh start|stop DIR" >&2; exit 2; }

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
    echo "slurm-cluster: Slurm is not installed, and installing it needs root and apt-get" >&2
    exit 3
  fi
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge >/dev/null; } ||
    { echo "slurm-cluster: could not install slurmctld, slurmd, slurm-client and munge from Debian" >&2; exit 3; }
fi

stop
mkdir -p "$dir/spool/ctld" "$dir/spool/d" "$dir/munge"
chmod 700 "$dir/munge"
# A key of our own, so that nothing here depends on (or touches) a munge set up on this host.
[ -f "$dir/munge/munge.key" ] || head -c 1024 /dev/urandom > "$dir/munge/munge.key"
chmod 600 "$dir/munge/munge.key"
host="$(hostname -s)"
node="$(slurmd -C | head -n 1)"
# The first line marks the file as this script's: test/cluster/slurm-array.slurm.test.ts runs only on such a cluster.
cat > "$dir/slurm.conf" <<EOF
# A private test cluster written by perceptron-lab's scripts/slurm-cluster.sh
ClusterName=perceptronlab
SlurmctldHost=$host
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
StateSaveLocation=$dir/spool/ctld
SlurmdSpoolDir=$dir/spool/d
SlurmctldPidFile=$dir/slurmctld.daemon.pid
SlurmdPidFile=$dir/slurmd.daemon.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MinJobAge=300
$node
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

export SLURM_CONF="$dir/slurm.conf"
munged --foreground --force --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
  --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed" </dev/null >/dev/null 2>&1 &
echo $! > "$dir/munged.pid"
for _ in $(seq 50); do [ -S "$dir/munge/munge.socket" ] && break; sleep 0.1; done
setsid slurmctld -D -i </dev/null >>"$dir/slurmctld.out" 2>&1 &
echo $! > "$dir/slurmctld.pid"
setsid slurmd -D </dev/null >>"$dir/slurmd.out" 2>&1 &
echo $! > "$dir/slurmd.pid"
for _ in $(seq 600); do
  state="$(sinfo --noheader --format=%t 2>/dev/null | head -n 1 || true)"
  case "$state" in idle|mix|alloc) echo "PERCEPTRON_LAB_TEST_SLURM_CONF=$SLURM_CONF"; exit 0 ;; esac
  sleep 0.2
done
echo "slurm-cluster: the node did not come up (state '${state:-none}'); see $dir/slurmctld.log and $dir/slurmd.log" >&2
stop
exit 1
