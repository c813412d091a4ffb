#!/bin/sh
# Runs a prmkit sweep on a Slurm cluster: a job array of SHARDS tasks (one
# shard each, sweep.sbatch) and a merge that runs once every task has
# succeeded (merge.sbatch), into OUT/shard-1..SHARDS and OUT/all. Prints the
# two job ids. Extra arguments go to both sbatch calls (--partition=..., --account=...).
#
#   scripts/slurm/submit-sweep.sh configs/sweeps/strategies.yaml out/strategies 8
#
# A task that was killed can be resubmitted alone (it resumes):
#   SWEEP=... OUT=... SHARDS=8 sbatch --array=3 scripts/slurm/sweep.sbatch
# and the merge after it:
#   SWEEP=... OUT=... SHARDS=8 sbatch --dependency=afterok:JOB scripts/slurm/merge.sbatch
set -eu
if [ "$#" -lt 3 ]; then
  echo "usage: submit-sweep.sh SWEEP OUT SHARDS [sbatch options...]" >&2
  exit 2
fi
SWEEP=$1 OUT=$2 SHARDS=$3
shift 3
case $SHARDS in
  '' | *[!0-9]* | 0) echo "submit-sweep.sh: SHARDS must be a whole number >= 1, got '$SHARDS'" >&2; exit 2 ;;
esac
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
mkdir -p "$OUT"
export SWEEP OUT SHARDS
array=$(sbatch --parsable --array="1-$SHARDS" --output="$OUT/task-%A_%a.out" "$@" "$here/sweep.sbatch")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterok:$array" --output="$OUT/merge-%j.out" "$@" "$here/merge.sbatch")
merge=${merge%%;*}
echo "array $array"
echo "merge $merge"
