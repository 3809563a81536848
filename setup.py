"""Builds the extension onyx._onyx with the project's CMake build.

`pip install --no-build-isolation .` runs this: CMake configures the
repository in build-pip/ for the interpreter running pip, Ninja builds the
one target the module needs, and the result is copied where setuptools
packs it next to python/onyx/*.py."""

import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build_dir = os.environ.get("ONYX_PIP_BUILD_DIR", os.path.join(ROOT, "build-pip"))
        subprocess.check_call(
            [
                "cmake", "-G", "Ninja", "-S", ROOT, "-B", build_dir,
                "-DCMAKE_BUILD_TYPE=Release",
                "-DONYX_BUILD_BENCHMARKS=OFF",
                f"-DPython_EXECUTABLE={sys.executable}",
            ]
        )
        subprocess.check_call(["cmake", "--build", build_dir, "--target", "onyx_python"])
        built = os.path.join(build_dir, "python", "onyx")
        (library,) = [f for f in os.listdir(built) if f.startswith("_onyx.") and f.endswith(".so")]
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(built, library), target)


setup(ext_modules=[Extension("onyx._onyx", sources=[])], cmdclass={"build_ext": CMakeBuild})
