#include "api/gemm/gemm_checks.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace vt::api {

void CheckBatchStrided(const Checker& c, const Tensor& t, const char* name) {
  const std::string n(name);
  const bool empty = t.Numel() == 0;
  c.Require((n + ".inner_stride").c_str(), empty || t.stride[2] == 1,
            n + " innermost dimension must be unit-stride, got " + t.Describe());
  c.Require((n + ".row_stride").c_str(), empty || t.stride[1] >= t.shape[2],
            n + " row stride must not overlap the next row (stride[1] >= " + std::to_string(t.shape[2]) +
                "), got " + t.Describe());
}

bool ElementsDisjoint(const Tensor& t) {
  if (t.Numel() == 0) return true;
  std::vector<std::pair<int64_t, int64_t>> dims;  // (stride, extent), extent > 1
  for (int d = 0; d < t.rank; ++d) {
    if (t.shape[d] > 1) dims.emplace_back(t.stride[d], t.shape[d]);
  }
  std::sort(dims.begin(), dims.end());
  int64_t span = 1;  // elements the smaller-strided dims reach, from the first
  for (const auto& [stride, extent] : dims) {
    if (stride < span) return false;
    span = stride * (extent - 1) + span;
  }
  return true;
}

}  // namespace vt::api
