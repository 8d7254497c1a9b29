#include "api/gemm/gemm_checks.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace vt::api {

void CheckMatrixProduct(const Checker& c, const ExecContext& ctx, const Tensor& out, const Tensor& a,
                        const Tensor& b, Weight weight) {
  const bool linear = weight == Weight::kLinear;
  c.Operand(ctx, a, "a");
  c.Rank(a, "a", 2);
  c.FloatIn(a, "a");
  if (linear) {
    c.RowStrided(a, "a");
    c.OperandKnRepackable(ctx, b, "b");
  } else {
    c.Contiguous(a, "a");
    c.Operand(ctx, b, "b");
  }
  c.Rank(b, "b", 2);
  c.FloatIn(b, "b");
  c.Contiguous(b, "b");
  if (linear) {
    c.Require("b.inner_dims", b.shape[1] == a.shape[1],
              "inner dims mismatch (b is [N,K]): b.shape[1] must be K = a.shape[1] = " +
                  std::to_string(a.shape[1]) + ", got b " + b.Describe());
  } else {
    c.Require("b.inner_dims", b.shape[0] == a.shape[1],
              "inner dims mismatch: b must be [K,N] with K = a.shape[1] = " + std::to_string(a.shape[1]) +
                  ", got b " + b.Describe());
  }
  c.Operand(ctx, out, "out");
  c.FloatOut(out, "out");
  c.Shape(out, "out", {a.shape[0], linear ? b.shape[0] : b.shape[1]});
  c.Contiguous(out, "out");
  c.NoOverlap(out, "out", a, "a");
  c.NoOverlap(out, "out", b, "b");
}

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
