# Sourced by the benchmark scripts: the arguments that name a problem to
# prmkit, for a shipped problem's name (configs/problems/NAME.yaml), a
# MotionBenchMaker request file, or a request's name under $B/problems
# (scenario/requestNNNN), with the Panda of $B. Sets the array `args`.
problem_args() {  # problem
  if [ -f "configs/problems/$1.yaml" ]; then
    args=("configs/problems/$1.yaml")
  elif [ -f "$1" ]; then
    args=(--urdf "$B/panda/panda.urdf" --srdf "$B/panda/panda.srdf" --request "$1")
  else
    args=(--urdf "$B/panda/panda.urdf" --srdf "$B/panda/panda.srdf" --request "$B/problems/$1.yaml")
  fi
}
