// DnnBackend on oneDNN for host arrays (see nn/dnn_backend.h). Built
// when CMake finds oneDNN (Debian's libdnnl-dev); otherwise the host has no
// backend and convolution runs as im2col + GEMM.
//
// Why oneDNN: its blocked direct convolutions (jit:avx2 / avx512 kernels)
// do not materialise the patch matrix, and measured 1.3-1.7x faster than
// kumo's im2col + OpenBLAS sgemm on the benchmark nets
// (benchmarks/RESULTS.md, "Convolution and pooling").
#include "nn/dnn_backend.h"

#if KUMO_HAVE_DNNL
#include <omp.h>

#include <dnnl.hpp>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/array.h"
#include "core/backend_registry.h"
#include "core/errors.h"
#include "core/host/thread_pool.h"
#endif

namespace kumo {

#if !KUMO_HAVE_DNNL
DnnBackend* host_dnn_backend() { return nullptr; }
#else
namespace {

using dnnl::memory;
using Tag = memory::format_tag;

memory::dims dims_of(std::initializer_list<int64_t> head, const std::vector<int64_t>& tail) {
  memory::dims d(head.begin(), head.end());
  d.insert(d.end(), tail.begin(), tail.end());
  return d;
}

// Plain (C-contiguous) layouts of kumo's arrays for 1, 2 and 3 spatial axes.
Tag data_tag(size_t nd) { return nd == 1 ? Tag::ncw : nd == 2 ? Tag::nchw : Tag::ncdhw; }
Tag weights_tag(size_t nd, bool grouped) {
  if (grouped) return nd == 1 ? Tag::goiw : nd == 2 ? Tag::goihw : Tag::goidhw;
  return nd == 1 ? Tag::oiw : nd == 2 ? Tag::oihw : Tag::oidhw;
}

// The three primitives of one convolution geometry. Source, weights and
// destination are `any`, so oneDNN picks its blocked layouts (nChw8c, ...)
// and the calls reorder kumo's plain arrays into and out of them: the
// reorders cost less than what the blocked kernels save (measured).
struct ConvPrimitives {
  memory::desc x_plain, w_plain, y_plain, b_plain;
  dnnl::convolution_forward::primitive_desc fwd_pd;
  dnnl::convolution_forward fwd;
  std::optional<dnnl::convolution_backward_data::primitive_desc> bwd_data_pd;
  std::optional<dnnl::convolution_backward_data> bwd_data;
  std::optional<dnnl::convolution_backward_weights::primitive_desc> bwd_weights_pd;
  std::optional<dnnl::convolution_backward_weights> bwd_weights;
};

class OneDnnBackend final : public DnnBackend {
 public:
  OneDnnBackend() : engine_(dnnl::engine::kind::cpu, 0) { attr_.set_scratchpad_mode(dnnl::scratchpad_mode::user); }

  std::string name() const override {
    const dnnl_version_t* v = dnnl_version();
    return "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch);
  }

  bool supports_convolution(Dtype dtype, const ConvGeometry& g) const override {
    if (dtype != Dtype::kFloat32) return false;  // no float64 kernels; float16 needs AVX512-FP16
    if (g.ndim() < 1 || g.ndim() > 3 || g.batch <= 0) return false;
    // With few channels per group (a net's first layer, depthwise
    // convolutions) the blocked kernels waste most of their 8-wide channel
    // blocks and the reorders dominate: im2col + GEMM measured 2-4x faster.
    if (g.in_channels / g.groups < kMinChannels || g.out_channels / g.groups < kMinChannels) return false;
    for (int64_t o : g.out_size())
      if (o <= 0) return false;
    return true;
  }

  void convolution_forward(Device& device, Dtype, const ConvGeometry& g, const void* x, const void* w, const void* b,
                           void* y) override {
    guarded("convolution_forward", g, [&] { forward(device, g, x, w, b, y); });
  }
  void convolution_backward_data(Device& device, Dtype, const ConvGeometry& g, const void* w, const void* gy,
                                 void* gx) override {
    guarded("convolution_backward_data", g, [&] { backward_data(device, g, w, gy, gx); });
  }
  void convolution_backward_weights(Device& device, Dtype, const ConvGeometry& g, const void* x, const void* gy,
                                    void* gw) override {
    guarded("convolution_backward_weights", g, [&] { backward_weights(device, g, x, gy, gw); });
  }

 private:
  // oneDNN's errors as kumo's, naming the call and the geometry.
  template <class Fn>
  void guarded(const char* call, const ConvGeometry& g, Fn&& fn) {
    try {
      fn();
    } catch (const dnnl::error& e) {
      throw RuntimeError(name() + " " + call + "(" + g.to_string() + "): " + e.what());
    }
  }

  void forward(Device& device, const ConvGeometry& g, const void* x, const void* w, const void* b, void* y) {
    std::shared_ptr<ConvPrimitives> p = primitives(g, b != nullptr);
    Session s(*this, device);
    memory xs = s.input(p->x_plain, x, p->fwd_pd.src_desc());
    memory ws = s.input(p->w_plain, w, p->fwd_pd.weights_desc());
    memory ys = s.output(p->y_plain, y, p->fwd_pd.dst_desc());
    std::unordered_map<int, memory> args{{DNNL_ARG_SRC, xs}, {DNNL_ARG_WEIGHTS, ws}, {DNNL_ARG_DST, ys}};
    if (b) args.emplace(DNNL_ARG_BIAS, memory(p->b_plain, engine_, const_cast<void*>(b)));
    s.run(p->fwd, p->fwd_pd.scratchpad_desc(), args);
    s.finish(ys, p->y_plain, y);
  }

  void backward_data(Device& device, const ConvGeometry& g, const void* w, const void* gy, void* gx) {
    std::shared_ptr<ConvPrimitives> p = primitives(g, false);
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!p->bwd_data) {
        const auto d = dnnl::convolution_backward_data::desc(dnnl::algorithm::convolution_direct, any(p->x_plain),
                                                             any(p->w_plain), any(p->y_plain), strides(g), dilates(g),
                                                             dims_of({}, g.pad_lo), dims_of({}, g.pad_hi));
        p->bwd_data_pd.emplace(d, attr_, engine_, p->fwd_pd);
        p->bwd_data.emplace(*p->bwd_data_pd);
      }
    }
    Session s(*this, device);
    const auto& pd = *p->bwd_data_pd;
    memory gys = s.input(p->y_plain, gy, pd.diff_dst_desc());
    memory ws = s.input(p->w_plain, w, pd.weights_desc());
    memory gxs = s.output(p->x_plain, gx, pd.diff_src_desc());
    s.run(*p->bwd_data, pd.scratchpad_desc(),
          {{DNNL_ARG_DIFF_DST, gys}, {DNNL_ARG_WEIGHTS, ws}, {DNNL_ARG_DIFF_SRC, gxs}});
    s.finish(gxs, p->x_plain, gx);
  }

  void backward_weights(Device& device, const ConvGeometry& g, const void* x, const void* gy, void* gw) {
    std::shared_ptr<ConvPrimitives> p = primitives(g, false);
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!p->bwd_weights) {
        const auto d = dnnl::convolution_backward_weights::desc(
            dnnl::algorithm::convolution_direct, any(p->x_plain), any(p->w_plain), any(p->y_plain), strides(g),
            dilates(g), dims_of({}, g.pad_lo), dims_of({}, g.pad_hi));
        p->bwd_weights_pd.emplace(d, attr_, engine_, p->fwd_pd);
        p->bwd_weights.emplace(*p->bwd_weights_pd);
      }
    }
    Session s(*this, device);
    const auto& pd = *p->bwd_weights_pd;
    memory xs = s.input(p->x_plain, x, pd.src_desc());
    memory gys = s.input(p->y_plain, gy, pd.diff_dst_desc());
    memory gws = s.output(p->w_plain, gw, pd.diff_weights_desc());
    s.run(*p->bwd_weights, pd.scratchpad_desc(),
          {{DNNL_ARG_SRC, xs}, {DNNL_ARG_DIFF_DST, gys}, {DNNL_ARG_DIFF_WEIGHTS, gws}});
    s.finish(gws, p->w_plain, gw);
  }

  // One call's stream, temporaries (from the host memory pool, freed when
  // the call returns) and reorders between kumo's plain arrays and the
  // layouts the primitive wants.
  class Session {
   public:
    Session(OneDnnBackend& backend, Device& device) : backend_(backend), device_(device), stream_(backend.engine_) {
      // oneDNN runs on OpenMP threads: as many as kumo's own pool has.
      omp_set_num_threads(host_num_threads());
    }
    memory input(const memory::desc& plain, const void* data, const memory::desc& want) {
      memory user(plain, backend_.engine_, const_cast<void*>(data));
      if (want == plain) return user;
      memory m = temporary(want);
      dnnl::reorder(user, m).execute(stream_, user, m);
      return m;
    }
    memory output(const memory::desc& plain, void* data, const memory::desc& want) {
      return want == plain ? memory(plain, backend_.engine_, data) : temporary(want);
    }
    void run(const dnnl::primitive& prim, const memory::desc& scratchpad, std::unordered_map<int, memory> args) {
      if (scratchpad.get_size() > 0) args.emplace(DNNL_ARG_SCRATCHPAD, temporary(scratchpad));
      prim.execute(stream_, args);
    }
    // Copies a blocked result into the caller's plain array.
    void finish(memory& result, const memory::desc& plain, void* data) {
      if (!(result.get_desc() == plain)) {
        memory user(plain, backend_.engine_, data);
        dnnl::reorder(result, user).execute(stream_, result, user);
      }
      stream_.wait();
    }

   private:
    memory temporary(const memory::desc& d) {
      temps_.push_back(Array::empty(Shape{static_cast<int64_t>(d.get_size())}, Dtype::kUInt8, device_));
      return memory(d, backend_.engine_, temps_.back().data());
    }
    OneDnnBackend& backend_;
    Device& device_;
    dnnl::stream stream_;
    std::vector<Array> temps_;
  };

  static memory::desc any(const memory::desc& plain) { return memory::desc(plain.dims(), plain.data_type(), Tag::any); }
  static memory::dims strides(const ConvGeometry& g) { return dims_of({}, g.stride); }
  // oneDNN counts dilation from 0 (0 = dense), Chainer from 1.
  static memory::dims dilates(const ConvGeometry& g) {
    memory::dims d;
    for (int64_t e : g.dilate) d.push_back(e - 1);
    return d;
  }

  std::shared_ptr<ConvPrimitives> primitives(const ConvGeometry& g, bool with_bias) {
    const std::string key = g.to_string() + (with_bias ? " bias" : "");
    std::lock_guard<std::mutex> lock(mu_);
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second;
    if (cache_.size() >= kCacheCapacity) cache_.clear();  // a net has a handful of geometries
    const size_t nd = g.ndim();
    const bool grouped = g.groups > 1;
    const auto dt = memory::data_type::f32;
    memory::desc x_plain(dims_of({g.batch, g.in_channels}, g.in_size), dt, data_tag(nd));
    memory::desc y_plain(dims_of({g.batch, g.out_channels}, g.out_size()), dt, data_tag(nd));
    memory::dims wd = grouped ? dims_of({g.groups, g.out_channels / g.groups, g.in_channels / g.groups}, g.ksize)
                              : dims_of({g.out_channels, g.in_channels}, g.ksize);
    memory::desc w_plain(wd, dt, weights_tag(nd, grouped));
    memory::desc b_plain({g.out_channels}, dt, Tag::x);
    const auto kind = dnnl::prop_kind::forward_training;
    const auto alg = dnnl::algorithm::convolution_direct;
    const auto pl = dims_of({}, g.pad_lo), pr = dims_of({}, g.pad_hi);
    const auto d = with_bias ? dnnl::convolution_forward::desc(kind, alg, any(x_plain), any(w_plain), b_plain,
                                                               any(y_plain), strides(g), dilates(g), pl, pr)
                             : dnnl::convolution_forward::desc(kind, alg, any(x_plain), any(w_plain), any(y_plain),
                                                               strides(g), dilates(g), pl, pr);
    dnnl::convolution_forward::primitive_desc pd(d, attr_, engine_);
    auto p = std::make_shared<ConvPrimitives>(
        ConvPrimitives{x_plain, w_plain, y_plain, b_plain, pd, dnnl::convolution_forward(pd), {}, {}, {}, {}});
    cache_.emplace(key, p);
    return p;
  }

  static constexpr size_t kCacheCapacity = 256;
  static constexpr int64_t kMinChannels = 8;
  dnnl::engine engine_;
  dnnl::primitive_attr attr_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<ConvPrimitives> > cache_;
};

}  // namespace

DnnBackend* host_dnn_backend() {
  // Built on first use; a oneDNN failure (an unsupported CPU) leaves the
  // host without a backend instead of failing every convolution.
  static OneDnnBackend* backend = []() -> OneDnnBackend* {
    try {
      static OneDnnBackend instance;
      return &instance;
    } catch (const dnnl::error&) {
      return nullptr;
    }
  }();
  return backend;
}
#endif

namespace {
const BackendRegistration registration(Capability::kDnn, DeviceType::kCPU, []() -> void* { return host_dnn_backend(); });
}  // namespace

}  // namespace kumo
