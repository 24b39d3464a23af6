#!/usr/bin/env python3
"""Fails when a C++ include points up the layers.

The layers and their arrows are the ``kumo_add_layer(NAME DIRS ... BELOW
...)`` calls of CMakeLists.txt, read here, so the build and this check have
one table. A file belongs to the layer whose DIRS hold its folder; a file may
include headers of its own layer and of every layer below it (BELOW,
transitively). Beyond the layers of libkumo:

- a ``cuda/`` folder (``linalg/cuda``, ``core/cuda``, ...) is the CUDA
  plugin's part of its layer: it may include what its layer may, the other
  ``cuda/`` folders of its layer and those below, and ``core/cuda`` (the
  plugin's shared CUDA helpers); ``core/cuda`` itself only core;
- no file outside a ``cuda/`` folder includes a ``cuda/`` header: the
  device-agnostic code knows the plugin only through core's interfaces and
  the backend registry;
- ``distributed`` sits on autograd and ``bindings`` on everything (the Python
  extension); tests, benchmarks and examples are not checked.

Run from anywhere: ``python3 scripts/check_layers.py`` (``--root`` names the
source tree). Exit status 1 with one line per offending include.
"""

import argparse
import os
import re
import sys

# Layers of the tree that are not part of libkumo (so not kumo_add_layer
# calls): their position above the library's layers.
EXTRA_LAYERS = {
    "distributed": (["distributed"], ["autograd"]),
    "bindings": (["bindings", "bindings/distributed"], ["distributed", "autograd", "sparse", "fft", "linalg"]),
}
UNCHECKED = ("tests/", "benchmarks/", "examples/", "python/", "build", "include/", ".git/")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SOURCE_EXTS = (".h", ".cpp", ".cu", ".cuh")


def read_layers(root):
    text = open(os.path.join(root, "CMakeLists.txt"), encoding="utf-8").read()
    layers = {}
    for m in re.finditer(r"^kumo_add_layer\(([^)]*)\)", text, re.M):
        words = m.group(1).split()
        name, dirs, below, key = words[0], [], [], None
        for w in words[1:]:
            if w in ("DIRS", "BELOW", "SOURCES"):
                key = w
            elif key == "DIRS":
                dirs.append(w)
            elif key == "BELOW":
                below.append(w)
        layers[name] = (dirs, below)
    if not layers:
        sys.exit("check_layers: no kumo_add_layer calls found in CMakeLists.txt")
    layers.update(EXTRA_LAYERS)
    return layers


def closure(layers):
    """Each layer's set of layers it may include (itself and all below)."""
    allowed = {}

    def visit(name, stack=()):
        if name in allowed:
            return allowed[name]
        if name in stack:
            sys.exit("check_layers: the layers form a cycle: " + " -> ".join(stack + (name,)))
        result = {name}
        for b in layers[name][1]:
            result |= visit(b, stack + (name,))
        allowed[name] = result
        return result

    for name in layers:
        visit(name)
    return allowed


def folder_layer(layers):
    owner = {}
    for name, (dirs, _) in layers.items():
        for d in dirs:
            owner[d] = name
    return owner


def locate(path, owner):
    """(layer, in_cuda) of a path relative to the root, or None."""
    folder = os.path.dirname(path)
    in_cuda = folder == "cuda" or folder.endswith("/cuda") or "/cuda/" in folder + "/"
    plain = re.sub(r"(^|/)cuda(/|$)", r"\1", folder).rstrip("/")
    while plain:
        if plain in owner:
            return owner[plain], in_cuda
        plain = os.path.dirname(plain)
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    layers = read_layers(root)
    allowed = closure(layers)
    owner = folder_layer(layers)
    problems, files, includes = [], 0, 0
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        rel_dir = "" if rel_dir == "." else rel_dir
        if (rel_dir + "/").startswith(UNCHECKED):
            dirnames[:] = []
            continue
        for fname in sorted(filenames):
            if not fname.endswith(SOURCE_EXTS):
                continue
            path = os.path.join(rel_dir, fname)
            where = locate(path, owner)
            if where is None:
                continue
            layer, in_cuda = where
            files += 1
            with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                for lineno, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    inc = m.group(1)
                    if "/" not in inc:
                        continue  # a header beside the file
                    target = locate(inc, owner)
                    if target is None:
                        continue  # include/kumo/... or a generated header
                    includes += 1
                    t_layer, t_cuda = target
                    why = None
                    if t_layer not in allowed[layer]:
                        why = f"layer {layer} includes layer {t_layer}, which is above it"
                    elif t_cuda and not in_cuda:
                        why = f"device-agnostic code of {layer} includes the CUDA plugin's {inc}"
                    elif in_cuda and layer == "core" and t_layer != "core":
                        why = "core/cuda (the plugin's core) includes a layer above core"
                    if why:
                        problems.append(f"{path}:{lineno}: #include \"{inc}\": {why}")
    for p in problems:
        print(p)
    status = "FAILED" if problems else "ok"
    print(f"check_layers: {status}: {files} files, {includes} includes between folders, "
          f"{len(layers)} layers, {len(problems)} against the arrows")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
