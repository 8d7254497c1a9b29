#include "api/glue/index_checks.h"

#include <cstring>

namespace vt::api {
namespace {

int64_t ValueAt(const Tensor& idx, int64_t k) {
  const auto* p = static_cast<const unsigned char*>(idx.data);
  if (idx.dtype == DType::kI32) {
    int32_t v;
    std::memcpy(&v, p + k * 4, 4);
    return v;
  }
  int64_t v;
  std::memcpy(&v, p + k * 8, 8);
  return v;
}

}  // namespace

int64_t FirstOutOfRange(const Tensor& idx, int64_t n) {
  const int64_t m = idx.shape[0];
  for (int64_t k = 0; k < m; ++k) {
    const int64_t v = ValueAt(idx, k);
    if (v < 0 || v >= n) return k;
  }
  return -1;
}

void RequireIndicesInRange(const Checker& c, const ExecContext& ctx, const char* site, const Tensor& device_idx,
                           const char* idx_name, int64_t n, const std::string& what) {
  const HostValues host(ctx, device_idx);
  const Tensor& idx = *host;
  const int64_t bad = FirstOutOfRange(idx, n);
  std::string msg;
  if (bad >= 0) {
    msg = std::string(idx_name) + "[" + std::to_string(bad) + "] = " + std::to_string(ValueAt(idx, bad)) +
          " is outside [0, " + std::to_string(n) + ") (" + what + ")";
  }
  c.Require(site, bad < 0, msg);
}

}  // namespace vt::api
