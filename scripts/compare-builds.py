#!/usr/bin/env python3
"""Checks that two builds of onyx compile alike: runs every `onyx-opt`
command of the lit tests (test/lit) with the tools of build A and of build
B and compares what they print. scripts/test.sh runs it on the ordinary
build (GCC) and the sanitizer build (clang): C++ leaves the order of
evaluating a call's arguments unspecified, and a generator that creates
host ops or push constants in two arguments of one call compiles to IR
that depends on the compiler (a cache key of the compiled plan would too).

  scripts/compare-builds.py BUILD_A BUILD_B [LIT_FILE...]

Commands that print timings or the options' help (whose defaults differ
between the builds' configurations) are left out.
"""
import concurrent.futures
import difflib
import glob
import os
import re
import subprocess
import sys


def run_lines(path):
    """The RUN commands of a lit file, continuation lines joined."""
    runs, current = [], ''
    with open(path) as f:
        for line in f:
            m = re.match(r'\s*//\s*RUN:\s?(.*?)\s*$', line)
            if not m:
                continue
            text = m.group(1)
            if text.endswith('\\'):
                current += text[:-1] + ' '
            else:
                runs.append((current + text).strip())
                current = ''
    return runs


def commands(files):
    for path in files:
        for run in run_lines(path):
            if not run.startswith('onyx-opt '):
                continue
            command = run.split(' | ')[0].replace('%models', 'test/models')
            command = command.replace('%s', path)
            if '%' in command or 'timing' in command or '--help' in command:
                continue
            yield path, command


def output(build, command):
    env = dict(os.environ,
               PATH=os.path.join(build, 'bin') + os.pathsep + os.environ['PATH'],
               ASAN_OPTIONS='detect_leaks=0', ONYX_CACHE_DIR='none')
    p = subprocess.run(command, shell=True, env=env, capture_output=True,
                       text=True, timeout=1800)
    return p.stdout


def compare(a, b, path, command):
    x, y = output(a, command), output(b, command)
    if x == y:
        return None
    diff = difflib.unified_diff(x.splitlines(), y.splitlines(), a, b,
                                lineterm='', n=1)
    lines = [l[:300] for l in diff]
    return f'{path}: {command}\n' + '\n'.join(lines[:60])


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    a, b = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
    files = sys.argv[3:] or sorted(
        glob.glob('test/lit/**/*.mlir', recursive=True))
    todo = list(commands(files))
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        results = list(pool.map(lambda t: compare(a, b, *t), todo))
    differ = [r for r in results if r]
    for r in differ:
        print(r)
    print(f'compare-builds: {len(todo)} commands, {len(differ)} differ')
    sys.exit(1 if differ else 0)


if __name__ == '__main__':
    main()
