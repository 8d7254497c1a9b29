#include "api/check.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace vt::api {

std::string ShapeString(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

void Checker::Fail(const std::string& condition) const { throw Error(op_, condition); }

void Checker::Operand(const ExecContext& ctx, const Tensor& t, const char* name) const {
  const std::string n(name);
  Require(t.rank >= 1 && t.rank <= kMaxRank, n + " must have rank 1..4");
  bool known = false;
  for (vt::DType dt : kAllDTypes) known = known || dt == t.dtype;
  Require(known, n + " has an unknown dtype");
  for (int d = 0; d < t.rank; ++d) {
    Require(t.shape[d] >= 0, n + " extents must be >= 0");
    Require(t.stride[d] >= 0, n + " strides must be >= 0");
  }
  int64_t numel = 0;
  try {
    numel = t.Numel();
  } catch (const Error&) {
    Fail(n + " element count overflows int64");
  }
  Require(numel == 0 || t.data != nullptr, n + " data must not be null");
  const DeviceType want = ctx.backend == Backend::kCPU ? DeviceType::kCPU : DeviceType::kCUDA;
  Require(t.device.type == want,
          n + " must be on the " + std::string(vt::Name(ctx.backend)) + " device of the context");
}

void Checker::Rank(const Tensor& t, const char* name, int rank) const {
  Require(t.rank == rank, std::string(name) + " must be rank-" + std::to_string(rank) + ", got " +
                              t.Describe());
}

void Checker::RankIn(const Tensor& t, const char* name, int lo, int hi) const {
  Require(t.rank >= lo && t.rank <= hi, std::string(name) + " must be rank " + std::to_string(lo) +
                                            ".." + std::to_string(hi) + ", got " + t.Describe());
}

void Checker::DType(const Tensor& t, const char* name,
                    std::initializer_list<vt::DType> allowed) const {
  if (std::find(allowed.begin(), allowed.end(), t.dtype) != allowed.end()) return;
  std::string set;
  for (vt::DType dt : allowed) set += (set.empty() ? "" : "/") + std::string(vt::Name(dt));
  Fail(std::string(name) + " must be " + set + ", got " + std::string(vt::Name(t.dtype)));
}

void Checker::FloatIn(const Tensor& t, const char* name) const {
  DType(t, name, {vt::DType::kF32, vt::DType::kF16, vt::DType::kBF16});
}

void Checker::FloatOut(const Tensor& t, const char* name) const {
  DType(t, name, {vt::DType::kF32, vt::DType::kBF16});
}

void Checker::Contiguous(const Tensor& t, const char* name) const {
  Require(t.IsContiguous(), std::string(name) + " must be contiguous, got " + t.Describe());
}

void Checker::RowStrided(const Tensor& t, const char* name) const {
  Require(t.IsRowStrided(), std::string(name) +
                                " must have packed inner dims and outer strides >= the inner "
                                "span, got " + t.Describe());
}

void Checker::Shape(const Tensor& t, const char* name, const std::vector<int64_t>& shape) const {
  bool same = t.rank == static_cast<int>(shape.size());
  for (int d = 0; same && d < t.rank; ++d) same = t.shape[d] == shape[static_cast<std::size_t>(d)];
  Require(same, std::string(name) + " must be " + ShapeString(shape) + ", got " + t.Describe());
}

void Checker::SameShape(const Tensor& a, const char* an, const Tensor& b, const char* bn) const {
  Shape(a, an, std::vector<int64_t>(b.shape, b.shape + b.rank));
  (void)bn;
}

void Checker::SameNumel(const Tensor& a, const char* an, const Tensor& b, const char* bn) const {
  Require(a.Numel() == b.Numel(), std::string(an) + " and " + bn +
                                      " must have the same element count, got " + a.Describe() +
                                      " and " + b.Describe());
}

void Checker::SameDType(const Tensor& a, const char* an, const Tensor& b, const char* bn) const {
  Require(a.dtype == b.dtype, std::string(an) + " must have " + bn + "'s dtype " +
                                  std::string(vt::Name(b.dtype)) + ", got " +
                                  std::string(vt::Name(a.dtype)));
}

void Checker::NoOverlap(const Tensor& a, const char* an, const Tensor& b, const char* bn) const {
  const int64_t na = a.StorageElems(), nb = b.StorageElems();
  if (na == 0 || nb == 0) return;
  const auto a0 = reinterpret_cast<uintptr_t>(a.data);
  const auto b0 = reinterpret_cast<uintptr_t>(b.data);
  const uintptr_t a1 = a0 + static_cast<uintptr_t>(na) * a.ElementSize();
  const uintptr_t b1 = b0 + static_cast<uintptr_t>(nb) * b.ElementSize();
  Require(a1 <= b0 || b1 <= a0, std::string(an) + " must not overlap " + bn);
}

void Checker::PositiveFinite(float v, const char* name) const {
  Require(std::isfinite(v) && v > 0.0f,
          std::string(name) + " must be finite and > 0, got " + std::to_string(v));
}

void Checker::Finite(float v, const char* name) const {
  Require(std::isfinite(v), std::string(name) + " must be finite, got " + std::to_string(v));
}

}  // namespace vt::api
