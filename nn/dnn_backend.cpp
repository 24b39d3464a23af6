#include "nn/dnn_backend.h"

#include <cstdlib>
#include <cstring>

#include "core/backend_registry.h"
#include "core/errors.h"

namespace kumo {
namespace {

std::string join(const std::vector<int64_t>& v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + ")";
}

std::vector<int64_t> sliding_out(const std::vector<int64_t>& in, const std::vector<int64_t>& k,
                                 const std::vector<int64_t>& s, const std::vector<int64_t>& lo,
                                 const std::vector<int64_t>& hi, const std::vector<int64_t>* d) {
  std::vector<int64_t> out(in.size());
  for (size_t a = 0; a < in.size(); ++a) {
    const int64_t span = (k[a] - 1) * (d ? (*d)[a] : 1) + 1;
    out[a] = (in[a] + lo[a] + hi[a] - span) / s[a] + 1;
  }
  return out;
}

// The process default, read once: KUMO_DNN=0 switches the libraries off.
bool default_enabled() {
  static const bool enabled = [] {
    const char* env = std::getenv("KUMO_DNN");
    return !(env && std::strcmp(env, "0") == 0);
  }();
  return enabled;
}

struct DnnSwitch {
  bool host = default_enabled();
  bool cuda = default_enabled();
};
thread_local DnnSwitch dnn_switch;

}  // namespace

std::vector<int64_t> ConvGeometry::out_size() const {
  return sliding_out(in_size, ksize, stride, pad_lo, pad_hi, &dilate);
}

std::string ConvGeometry::to_string() const {
  return "N=" + std::to_string(batch) + " C=" + std::to_string(in_channels) + " Cout=" + std::to_string(out_channels) +
         " groups=" + std::to_string(groups) + " in=" + join(in_size) + " ksize=" + join(ksize) +
         " stride=" + join(stride) + " pad=" + join(pad_lo) + "/" + join(pad_hi) + " dilate=" + join(dilate);
}

std::vector<int64_t> PoolGeometry::out_size() const {
  return sliding_out(in_size, ksize, stride, pad_lo, pad_hi, nullptr);
}

void DnnBackend::pooling_forward(Device&, Dtype dtype, PoolMode, const PoolGeometry&, const void*, void*) {
  throw RuntimeError(name() + ": pooling_forward is not supported (" + dtype_name(dtype) + "); check supports_pooling");
}

void DnnBackend::pooling_backward(Device&, Dtype dtype, PoolMode, const PoolGeometry&, const void*, const void*,
                                  const void*, void*) {
  throw RuntimeError(name() + ": pooling_backward is not supported (" + dtype_name(dtype) +
                     "); check supports_pooling");
}

bool dnn_enabled(DeviceType type) { return type == DeviceType::kCPU ? dnn_switch.host : dnn_switch.cuda; }

void set_dnn_enabled(DeviceType type, bool enabled) {
  (type == DeviceType::kCPU ? dnn_switch.host : dnn_switch.cuda) = enabled;
}

DnnBackend* dnn_backend(const Device& device) {
  if (!dnn_enabled(device.type())) return nullptr;
  return find_backend<DnnBackend>(device.type());
}

}  // namespace kumo
