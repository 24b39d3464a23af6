// Kernel specifications: what a user (or the built-in tables) says about a
// kernel, independent of the types it will be called with and of the device.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/dtype.h"

namespace kumo {
namespace kernels {

// One parameter of "T x, raw float32 y, int32 z".
struct ParamSpec {
  std::string name;
  std::string type_name;  // as written: a dtype name ("float32") or a generic name ("T")
  bool is_generic = false;
  Dtype dtype = Dtype::kFloat64;  // when !is_generic
  bool raw = false;
  bool is_const = false;  // declared "const T x" (read-only even as an output)
};

std::vector<ParamSpec> parse_params(const std::string& params);

// CuPy's ElementwiseKernel model.
struct ElementwiseSpec {
  std::string name;
  std::vector<ParamSpec> in_params;
  std::vector<ParamSpec> out_params;
  std::string operation;  // statements using the parameter names and `i`
  std::string preamble;
  std::vector<std::string> options;  // extra compiler options (CUDA)
  // CuPy's loop_prep/after_loop: statements run once per CUDA thread (once per
  // host chunk) before and after its loop over elements. Variables that
  // loop_prep declares are visible to the operation and to after_loop.
  std::string loop_prep;
  std::string after_loop;
  // false: the loop keeps the arrays' axes as given instead of merging
  // contiguous ones (CuPy's reduce_dims; `i` is the C-order index either way).
  bool reduce_dims = true;
  uint64_t id = 0;                   // unique per spec object, for cache keys
  // Built-in kernels whose result does not depend on the visiting order may
  // iterate in memory order; user kernels keep `i` as the C-order index.
  bool reorder_axes = false;
  // On the host, launches moving fewer bytes than this run on the calling
  // thread alone (0: split by element count only).
  int64_t min_parallel_bytes = 0;
  // On the host, the elements a task of the thread pool takes at least
  // (0: the default). Kernels whose element is a long loop of its own (one
  // chunk of a stream compaction) set 1; INT64_MAX runs the whole launch as
  // one task, in C order (scatters where the last write must win).
  int64_t host_grain = 0;

  static std::shared_ptr<ElementwiseSpec> create(const std::string& name, const std::string& in_params,
                                                 const std::string& out_params, const std::string& operation,
                                                 const std::string& preamble = "",
                                                 const std::vector<std::string>& options = {},
                                                 const std::string& loop_prep = "", const std::string& after_loop = "");
};

// CuPy's ReductionKernel model: out = post_map(reduce(map(in) over axes)).
struct ReductionSpec {
  std::string name;
  std::vector<ParamSpec> in_params;
  std::vector<ParamSpec> out_params;
  std::string map_expr;       // expression over the inputs (and `_j`, the index within the reduction)
  std::string reduce_expr;    // expression over `a` and `b`
  std::string post_map_expr;  // statement(s) over `a` and the outputs
  std::string identity;       // expression, or "" for "no identity"
  std::string reduce_type;    // a dtype name, a generic name, or a C type
  std::string preamble;
  std::vector<std::string> options;
  uint64_t id = 0;

  static std::shared_ptr<ReductionSpec> create(const std::string& name, const std::string& in_params,
                                               const std::string& out_params, const std::string& map_expr,
                                               const std::string& reduce_expr, const std::string& post_map_expr,
                                               const std::string& identity, const std::string& reduce_type,
                                               const std::string& preamble = "",
                                               const std::vector<std::string>& options = {});
};

uint64_t next_spec_id();

}  // namespace kernels
}  // namespace kumo
