#include "api/check.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "vt/check_sites.h"
#include "vt/device.h"

namespace vt {
namespace {
thread_local CheckSiteObserver* g_observer = nullptr;
}  // namespace

CheckSiteObserver* SetCheckSiteObserver(CheckSiteObserver* o) {
  CheckSiteObserver* old = g_observer;
  g_observer = o;
  return old;
}

CheckSiteObserver* GetCheckSiteObserver() { return g_observer; }

}  // namespace vt

namespace vt::api {

std::string ShapeString(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

void Checker::Fail(const std::string& site, const std::string& condition) const {
  throw Error(op_, condition, site);
}

// The typed checks' site name and message are built only when the check
// fails or an observer watches: a valid call (every decode step) builds no
// string (rms_norm [1,4096]: the checks cost more than the kernel's 4096-add
// chain while they built every message; docs/performance.md).
void Checker::Evaluated(bool ok, const char* kind, const char* a, const char* b,
                        const MessageFn& condition) const {
  CheckSiteObserver* o = GetCheckSiteObserver();
  std::string site = std::string(kind) + "(" + a + (b != nullptr ? std::string(",") + b : "") + ")";
  if (o != nullptr) o->Evaluated(op_, site);
  if (!ok) Fail(site, condition());
}

void Checker::Require(const char* site, bool ok, const std::string& condition) const {
  CheckSiteObserver* o = GetCheckSiteObserver();
  if (o != nullptr) o->Evaluated(op_, site);
  if (!ok) Fail(site, condition);
}

void Checker::Require(const char* site, bool ok, const char* condition) const {
  CheckSiteObserver* o = GetCheckSiteObserver();
  if (o != nullptr) o->Evaluated(op_, site);
  if (!ok) Fail(site, condition);
}

void Checker::Operand(const ExecContext& ctx, const Tensor& t, const char* name) const {
  OperandView(ctx, t, name);
  // The flag re-describes the bytes; an operand that does not read it would
  // silently compute on the transposed weight.
  Site(!t.elem_kn_repacked, "operand.kn_repacked", name, nullptr, [&] {
    return std::string(name) + " has elem_kn_repacked set, which this op does not honour for it";
  });
}

void Checker::OperandKnRepackable(const ExecContext& ctx, const Tensor& t, const char* name) const {
  OperandView(ctx, t, name);
}

void Checker::OperandView(const ExecContext& ctx, const Tensor& t, const char* name) const {
  Site(t.rank >= 1 && t.rank <= kMaxRank, "operand.rank", name, nullptr, [&] {
    return std::string(name) + " must have rank 1..4";
  });
  bool known = false;
  for (vt::DType dt : kAllDTypes) known = known || dt == t.dtype;
  Site(known, "operand.dtype", name, nullptr, [&] { return std::string(name) + " has an unknown dtype"; });
  bool extents = true, strides = true;
  for (int d = 0; d < t.rank; ++d) {
    extents = extents && t.shape[d] >= 0;
    strides = strides && t.stride[d] >= 0;
  }
  Site(extents, "operand.extent", name, nullptr, [&] { return std::string(name) + " extents must be >= 0"; });
  Site(strides, "operand.stride", name, nullptr, [&] { return std::string(name) + " strides must be >= 0"; });
  int64_t numel = 0;
  bool fits = true;
  try {
    numel = t.Numel();
    (void)t.StorageElems();  // the span the overlap checks and kernels address
  } catch (const Error&) {
    fits = false;
  }
  Site(fits, "operand.numel", name, nullptr, [&] {
    return std::string(name) + " element count or storage span overflows int64";
  });
  Site(numel == 0 || t.data != nullptr, "operand.null", name, nullptr, [&] {
    return std::string(name) + " data must not be null";
  });
  // Natural alignment (H-10): the kernels load and store through typed
  // pointers, and the CUDA twins through typed and vectorised accesses, so a
  // data pointer must be a multiple of the element size - what torch / vLLM
  // callers always pass. An empty view addresses nothing: any pointer, as
  // for null. One site for every operand of the op (the condition names
  // the operand): a per-operand site would be unrefusable for a 1-byte
  // operand, which no pointer misaligns (docs/decisions.md).
  const std::size_t es = t.ElementSize();
  const std::size_t off = reinterpret_cast<uintptr_t>(t.data) % es;
  Require("operand.aligned", numel == 0 || off == 0, [&] {
    return std::string(name) + " data must be aligned to its " + std::to_string(es) + "-byte element size (" +
           std::string(vt::Name(t.dtype)) + "), got address % " + std::to_string(es) + " == " + std::to_string(off);
  });
  const DeviceType want = ctx.backend == Backend::kCPU ? DeviceType::kCPU : DeviceType::kCUDA;
  Site(t.device.type == want, "operand.device", name, nullptr, [&] {
    return std::string(name) + " must be on the " + std::string(vt::Name(ctx.backend)) + " device of the context";
  });
}

void Checker::Rank(const Tensor& t, const char* name, int rank) const {
  Site(t.rank == rank, "rank", name, nullptr, [&] {
    return std::string(name) + " must be rank-" + std::to_string(rank) + ", got " + t.Describe();
  });
}

void Checker::RankIn(const Tensor& t, const char* name, int lo, int hi) const {
  Site(t.rank >= lo && t.rank <= hi, "rank", name, nullptr, [&] {
    return std::string(name) + " must be rank " + std::to_string(lo) + ".." + std::to_string(hi) + ", got " +
           t.Describe();
  });
}

void Checker::DType(const Tensor& t, const char* name,
                    std::initializer_list<vt::DType> allowed) const {
  const bool ok = std::find(allowed.begin(), allowed.end(), t.dtype) != allowed.end();
  std::string set;
  if (!ok) {
    for (vt::DType dt : allowed) set += (set.empty() ? "" : "/") + std::string(vt::Name(dt));
  }
  Site(ok, "dtype", name, nullptr, [&] {
    return std::string(name) + " must be " + set + ", got " + std::string(vt::Name(t.dtype));
  });
}

void Checker::FloatIn(const Tensor& t, const char* name) const {
  DType(t, name, {vt::DType::kF32, vt::DType::kF16, vt::DType::kBF16});
}

void Checker::FloatOut(const Tensor& t, const char* name) const {
  DType(t, name, {vt::DType::kF32, vt::DType::kBF16});
}

void Checker::Contiguous(const Tensor& t, const char* name) const {
  Site(t.IsContiguous(), "contiguous", name, nullptr, [&] {
    return std::string(name) + " must be contiguous, got " + t.Describe();
  });
}

void Checker::RowStrided(const Tensor& t, const char* name) const {
  Site(t.IsRowStrided(), "row_strided", name, nullptr, [&] { return std::string(name) +
           " must have packed inner dims and outer strides >= the inner span, got " +
           t.Describe(); });
}

void Checker::Shape(const Tensor& t, const char* name, const std::vector<int64_t>& shape) const {
  bool same = t.rank == static_cast<int>(shape.size());
  for (int d = 0; same && d < t.rank; ++d) same = t.shape[d] == shape[static_cast<std::size_t>(d)];
  Site(same, "shape", name, nullptr, [&] {
    return std::string(name) + " must be " + ShapeString(shape) + ", got " + t.Describe();
  });
}

void Checker::SameShape(const Tensor& a, const char* an, const Tensor& b, const char* bn) const {
  Shape(a, an, std::vector<int64_t>(b.shape, b.shape + b.rank));
  (void)bn;
}

void Checker::SameNumel(const Tensor& a, const char* an, const Tensor& b, const char* bn) const {
  Site(a.Numel() == b.Numel(), "numel", an, bn, [&] {
    return std::string(an) + " and " + bn + " must have the same element count, got " + a.Describe() + " and " +
           b.Describe();
  });
}

void Checker::SameDType(const Tensor& a, const char* an, const Tensor& b, const char* bn) const {
  Site(a.dtype == b.dtype, "same_dtype", an, bn, [&] {
    return std::string(an) + " must have " + bn + "'s dtype " + std::string(vt::Name(b.dtype)) + ", got " +
           std::string(vt::Name(a.dtype));
  });
}

void Checker::NoOverlap(const Tensor& a, const char* an, const Tensor& b, const char* bn) const {
  // Byte spans [data, data + StorageElems * element size): views that merely
  // touch (one ends where the other starts) are disjoint.
  const int64_t na = a.StorageElems(), nb = b.StorageElems();
  bool ok = true;
  if (na != 0 && nb != 0) {
    const auto a0 = reinterpret_cast<uintptr_t>(a.data);
    const auto b0 = reinterpret_cast<uintptr_t>(b.data);
    const uintptr_t a1 = a0 + static_cast<uintptr_t>(na) * a.ElementSize();
    const uintptr_t b1 = b0 + static_cast<uintptr_t>(nb) * b.ElementSize();
    ok = a1 <= b0 || b1 <= a0;
  }
  Site(ok, "overlap", an, bn, [&] { return std::string(an) + " must not overlap " + bn; });
}

void Checker::PositiveFinite(float v, const char* name) const {
  Site(std::isfinite(v) && v > 0.0f, "range", name, nullptr, [&] {
    return std::string(name) + " must be finite and > 0, got " + std::to_string(v);
  });
}

void Checker::Finite(float v, const char* name) const {
  Site(std::isfinite(v), "range", name, nullptr, [&] {
    return std::string(name) + " must be finite, got " + std::to_string(v);
  });
}

HostValues::HostValues(const ExecContext& ctx, const Tensor& t) : view_(t) {
  const DeviceApi* device = FindDeviceApi(ctx.backend);
  if (device == nullptr || t.data == nullptr || t.Numel() == 0) return;
  const std::size_t bytes = static_cast<std::size_t>(t.StorageElems()) * t.ElementSize();
  copy_.resize(bytes);
  device->to_host(copy_.data(), t.data, bytes);
  view_.data = copy_.data();
}

}  // namespace vt::api
