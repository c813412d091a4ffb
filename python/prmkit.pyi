"""prmkit: PRM and lazy PRM motion planning with pluggable, exact collision checkers.

Type stubs of the compiled module; the build checks them against it (mypy's stubtest).
"""
import os
from typing import Any, Dict, List, Optional, Sequence, Union

import numpy
import numpy.typing

__version__: str
planners: List[str]
checkers: List[str]

_Path = Union[str, os.PathLike[str]]
_Configs = numpy.typing.ArrayLike

class Result:
    """One planning run, as `prmkit plan` reports it."""

    @property
    def solved(self) -> bool:
        """True when a path from the start to the goal was found and checked."""
    @property
    def status(self) -> str:
        """How the run ended: 'solved', 'time limit', 'sample limit', 'cancelled' (Ctrl-C), ..."""
    @property
    def path(self) -> numpy.typing.NDArray[numpy.float64]:
        """The path, one row per waypoint (shape (n, len(Problem.coordinates)))."""
    @property
    def stats(self) -> Dict[str, Any]:
        """stats.json of the run as a dict (times in s, counters)."""

class Planner:
    """A planner and its checkers on one problem, made by Problem.planner."""

    def solve(
        self,
        *,
        start: Optional[_Configs] = None,
        goal: Optional[_Configs] = None,
        time_limit: Optional[float] = None,
    ) -> Result: ...
    def save(self, path: _Path) -> None: ...
    @property
    def name(self) -> str:
        """The planner's name."""
    @property
    def roadmap_vertices(self) -> int:
        """Vertices of the roadmap (0 before a solve)."""
    @property
    def roadmap_edges(self) -> int:
        """Edges of the roadmap."""

class Problem:
    """A problem file loaded as `prmkit plan` loads it; plan, check and verify on it."""

    @staticmethod
    def load(
        file: _Path,
        *,
        urdf: Optional[_Path] = None,
        srdf: Optional[_Path] = None,
        scene: Optional[_Path] = None,
        settings: Dict[str, Any] = ...,
    ) -> Problem: ...
    def plan(
        self,
        *,
        planner: Optional[str] = None,
        checker: Optional[str] = None,
        sampler: Optional[str] = None,
        seed: Optional[int] = None,
        time_limit: Optional[float] = None,
        threads: Optional[int] = None,
        settings: Dict[str, Any] = ...,
    ) -> Result: ...
    def planner(
        self,
        *,
        planner: Optional[str] = None,
        checker: Optional[str] = None,
        sampler: Optional[str] = None,
        seed: Optional[int] = None,
        time_limit: Optional[float] = None,
        threads: Optional[int] = None,
        settings: Dict[str, Any] = ...,
        roadmap: Optional[_Path] = None,
    ) -> Planner: ...
    def check_edges(
        self, starts: _Configs, ends: _Configs, *, checker: Optional[str] = None, jobs: int = 1
    ) -> Dict[str, Any]: ...
    def is_valid(self, configs: _Configs, *, checker: Optional[str] = None) -> numpy.typing.NDArray[numpy.bool_]: ...
    def verify(
        self, path: _Configs, *, eps: Optional[float] = None, goal_tolerance: Optional[float] = None
    ) -> Dict[str, Any]: ...
    @property
    def name(self) -> str:
        """The problem's name."""
    @property
    def dof(self) -> int:
        """Degrees of freedom of the robot."""
    @property
    def coordinates(self) -> List[str]:
        """The names of a configuration's coordinates, in order (a path's columns)."""
    @property
    def start(self) -> numpy.typing.NDArray[numpy.float64]:
        """The start configuration, shape (len(coordinates),)."""
    @property
    def goal(self) -> numpy.typing.NDArray[numpy.float64]:
        """The goal configuration, shape (len(coordinates),)."""

def compare(
    problem: Problem,
    *,
    planners: Sequence[str] = ...,
    checkers: Sequence[str] = ...,
    runs: int = 3,
    time_limit: float = 10.0,
    jobs: int = 1,
    out: _Path = ...,
    settings: Dict[str, Any] = ...,
) -> Any: ...
def _compare_in_this_process(arguments: str) -> int: ...
