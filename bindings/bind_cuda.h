// kumo._core.cuda: CUDA availability, NVRTC, streams and events.
#pragma once
#include <pybind11/pybind11.h>

// Fills `m` (the submodule kumo._core.cuda).
void bind_cuda(pybind11::module_& m);
