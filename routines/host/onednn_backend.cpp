// DnnBackend on oneDNN for host arrays (see routines/dnn_backend.h). Built
// when CMake finds oneDNN (Debian's libdnnl-dev); otherwise the host has no
// backend and convolution runs as im2col + GEMM.
#include "routines/dnn_backend.h"

namespace kumo {

#if !KUMO_HAVE_DNNL
DnnBackend* host_dnn_backend() { return nullptr; }
#endif

}  // namespace kumo
