"""Builds and packages the prmkit module for pip: CMake configures the
repository this file is in (its parent folder) in Release and builds the
module target alone; the wheel holds the module and its type stubs.
PRMKIT_BUILD_DIR names a build folder to use instead of build/python-package
(one `make test` made: then nothing is compiled again)."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOURCE = Path(__file__).resolve().parent.parent
VERSION = re.search(r"project\(prmkit VERSION ([0-9.]+)", (SOURCE / "CMakeLists.txt").read_text()).group(1)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = Path(os.environ.get("PRMKIT_BUILD_DIR") or SOURCE / "build" / "python-package")
        if not (build / "CMakeCache.txt").exists():
            subprocess.run(["cmake", "-S", str(SOURCE), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                            "-DPRMKIT_BUILD_TESTS=OFF", "-DPRMKIT_PYTHON=ON",
                            f"-DPython3_EXECUTABLE={sys.executable}"], check=True)
        subprocess.run(["cmake", "--build", str(build), "--target", "prmkit_python", "-j", str(os.cpu_count() or 1)],
                       check=True)
        built = sorted((build / "python").glob("prmkit*.so"))
        if not built:
            raise RuntimeError(f"no prmkit module in {build / 'python'} (is pybind11-dev installed?)")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built[0], target)
        shutil.copy2(SOURCE / "python" / "prmkit.pyi", target.parent / "prmkit.pyi")


setup(
    name="prmkit",
    version=VERSION,
    description="PRM and lazy PRM motion planning with pluggable, exact collision checkers",
    ext_modules=[Extension("prmkit", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    python_requires=">=3.9",
    install_requires=["numpy"],
    zip_safe=False,
)
