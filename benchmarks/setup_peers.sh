#!/usr/bin/env bash
# Installs the libraries the autograd benchmarks compare against, each in a
# virtual environment of its own at the repository root (never a dependency
# of kumo or its tests):
#   .venv-peers    PyTorch (CPU use of the PyPI wheel) and JAX; sees the
#                  system site-packages, so the installed kumo imports too
#   .venv-chainer  Chainer 7.8.1, which needs NumPy 1.x
# A peer that fails to install is skipped; the benchmark reports it missing.
set -u
cd "$(dirname "$0")/.."
python3 -m venv --system-site-packages .venv-peers
.venv-peers/bin/pip install -q torch || echo "setup_peers: torch did not install" >&2
.venv-peers/bin/pip install -q jax jaxlib || echo "setup_peers: jax did not install" >&2
python3 -m venv .venv-chainer
.venv-chainer/bin/pip install -q "setuptools<70" wheel "numpy<2" &&
  .venv-chainer/bin/pip install -q --no-build-isolation chainer==7.8.1 ||
  echo "setup_peers: chainer did not install" >&2
