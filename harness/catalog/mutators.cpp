#include "harness/catalog/mutators.h"

#include <cmath>

#include "harness/core/rng.h"

namespace vt::conform::mut {
namespace {

std::string Num(int64_t v) { return (v < 0 ? "minus" : "plus") + std::to_string(v < 0 ? -v : v); }

ErrorCase Make(std::string name, std::function<bool(Case&)> mutate, std::string expect,
               std::function<void(Workspace&)> bind = {}) {
  ErrorCase e;
  e.name = std::move(name);
  e.mutate = std::move(mutate);
  e.expect = std::move(expect);
  e.bind = std::move(bind);
  return e;
}

// Applies when the case has the tensor; the corruption happens at bind time.
ErrorCase ViewCorruption(const std::string& tensor, const std::string& what,
                         std::function<void(vt::Tensor&)> f) {
  return Make(tensor + "_view_" + what, [=](Case& c) { return c.Find(tensor) != nullptr; }, tensor,
              [=](Workspace& ws) { ws.MutateView(tensor, f); });
}

}  // namespace

ErrorCase DType(const std::string& tensor, vt::DType dt) {
  return Make(tensor + "_dtype_" + std::string(vt::Name(dt)), [=](Case& c) {
            TensorData* t = c.Find(tensor);
            if (t == nullptr || t->dtype == dt) return false;
            t->dtype = dt;
            t->fmt = vt::IsFloat(dt) ? oracle::FmtOf(dt) : oracle::Fmt::kF32;
            t->SetContiguous();
            return true;
          }, tensor);
}

ErrorCase Dim(const std::string& tensor, int dim, int64_t delta) {
  return Make(tensor + "_dim" + std::to_string(dim) + "_" + Num(delta), [=](Case& c) {
            TensorData* t = c.Find(tensor);
            if (t == nullptr || dim >= static_cast<int>(t->shape.size())) return false;
            if (t->shape[static_cast<std::size_t>(dim)] + delta < 0) return false;
            // With another extent 0 the count stays 0: for an operand whose
            // count alone is constrained that breaks nothing.
            for (std::size_t d = 0; d < t->shape.size(); ++d) {
              if (static_cast<int>(d) != dim && t->shape[d] == 0) return false;
            }
            const bool padded = !t->IsContiguous();
            t->shape[static_cast<std::size_t>(dim)] += delta;
            t->SetContiguous();
            if (padded) t->SetRowPadding(1);
            return true;
          }, tensor + "|must be [|rank|element count");
}

ErrorCase AddDim(const std::string& tensor) {
  return Make(tensor + "_rank_plus1", [=](Case& c) {
            TensorData* t = c.Find(tensor);
            if (t == nullptr || t->shape.size() >= 4) return false;
            t->shape.insert(t->shape.begin(), 1);
            t->SetContiguous();
            return true;
          }, tensor + "|must be [|rank|element count");
}

ErrorCase DropDim(const std::string& tensor) {
  return Make(tensor + "_rank_minus1", [=](Case& c) {
            TensorData* t = c.Find(tensor);
            if (t == nullptr || t->shape.size() < 2) return false;
            t->shape[1] *= t->shape[0];
            t->shape.erase(t->shape.begin());
            t->SetContiguous();
            return true;
          }, tensor + "|must be [|rank|element count");
}

ErrorCase Strided(const std::string& tensor) {
  return Make(tensor + "_padded_rows", [=](Case& c) {
            TensorData* t = c.Find(tensor);
            if (t == nullptr || t->Numel() == 0) return false;
            if (t->shape.size() < 2 || t->shape[0] < 2) {
              // A 1-D or single-row view: make the innermost stride 2 instead.
              t->SetContiguous();
              t->strides.back() = 2;
              return t->shape.back() >= 2;
            }
            t->SetRowPadding(3);
            return true;
          }, tensor);
}

ErrorCase InnerStride(const std::string& tensor) {
  return Make(tensor + "_inner_stride2", [=](Case& c) {
            TensorData* t = c.Find(tensor);
            if (t == nullptr || t->Numel() == 0 || t->shape.back() < 2) return false;
            // Keep every outer stride a multiple of the widened inner span.
            t->strides.back() = 2;
            for (std::size_t d = t->shape.size() - 1; d-- > 0;) {
              t->strides[d] = t->strides[d + 1] * std::max<int64_t>(t->shape[d + 1], 1);
            }
            return true;
          }, tensor);
}

ErrorCase OverlappingRows(const std::string& tensor) {
  return Make(tensor + "_overlapping_rows", [=](Case& c) {
            TensorData* t = c.Find(tensor);
            if (t == nullptr || t->shape.size() < 2 || t->shape[0] < 2 || t->strides[0] < 2) return false;
            t->SetContiguous();
            t->strides[0] -= 1;  // row i+1 starts inside row i
            return true;
          }, tensor);
}

ErrorCase OverlappingInnerRows(const std::string& tensor) {
  return Make(tensor + "_overlapping_inner_rows", [=](Case& c) {
            TensorData* t = c.Find(tensor);
            if (t == nullptr || t->shape.size() < 2) return false;
            const std::size_t r = t->shape.size() - 2;
            if (t->Numel() == 0 || t->shape[r] < 2 || t->shape.back() < 2) return false;
            t->SetContiguous();
            t->strides[r] -= 1;  // row i+1 starts inside row i
            // Outer strides clear the overlapped block, so only the rows overlap.
            for (std::size_t d = r; d-- > 0;) t->strides[d] = t->strides[d + 1] * t->shape[d + 1] + t->shape.back();
            return true;
          }, tensor);
}

ErrorCase KnRepacked(const std::string& tensor) {
  return ViewCorruption(tensor, "kn_repacked", [](vt::Tensor& t) { t.elem_kn_repacked = true; });
}

ErrorCase NullData(const std::string& tensor) {
  return Make(tensor + "_null", [=](Case& c) {
            TensorData* t = c.Find(tensor);
            if (t == nullptr || t->Numel() == 0) return false;
            t->null_data = true;
            return true;
          }, "null");
}

ErrorCase Misaligned(const std::string& tensor) {
  return Make(tensor + "_misaligned", [=](Case& c) {
            TensorData* t = c.Find(tensor);
            // A 1-byte element is aligned anywhere, and an empty view
            // addresses nothing (any pointer is legal there).
            if (t == nullptr || t->Numel() == 0 || vt::SizeOf(t->dtype) < 2 || !t->alias_of.empty()) return false;
            t->misalign_bytes = 1;
            return true;
          }, tensor + " data must be aligned");
}

ErrorCase OtherDevice(const std::string& tensor) {
  return Make(tensor + "_on_cuda", [=](Case& c) {
            TensorData* t = c.Find(tensor);
            if (t == nullptr) return false;
            t->device = vt::DeviceType::kCUDA;
            return true;
          }, "device");
}

ErrorCase Alias(const std::string& out, const std::string& in) {
  return Make(out + "_overlaps_" + in, [=](Case& c) {
            TensorData* o = c.Find(out);
            const TensorData* i = c.Find(in);
            if (o == nullptr || i == nullptr || o->Numel() == 0 || i->Numel() == 0) return false;
            // The smaller view is bound onto the larger one's storage, so
            // that it fits (an output may be the larger of the two).
            const int64_t bytes_o = o->StorageElems() * static_cast<int64_t>(vt::SizeOf(o->dtype));
            const int64_t bytes_i = i->StorageElems() * static_cast<int64_t>(vt::SizeOf(i->dtype));
            if (!o->alias_of.empty() || !i->alias_of.empty()) return false;
            if (bytes_o <= bytes_i) {
              o->alias_of = in;
            } else {
              c.Get(in).alias_of = out;
            }
            // Each tensor in its own allocation: the alias lands on an
            // allocation's start, aligned for any dtype (in the packed and
            // offset layouts an f32 view on bf16 storage could sit 2 bytes
            // off, and be refused for that instead of the overlap).
            c.params.Set("layout", "separate");
            return true;
          }, "overlap");
}

ErrorCase Arg(const std::string& key, Json value) {
  // JSON has no NaN or inf (dump() prints null): name them.
  std::string label = value.dump();
  if (value.is_number_float()) {
    const double v = value.get<double>();
    if (std::isnan(v)) label = "nan";
    if (std::isinf(v)) label = v > 0 ? "inf" : "minus_inf";
  }
  for (char& ch : label) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return Make(key + "_" + label, [=](Case& c) {
            if (!c.params.Has(key)) return false;
            c.params.Set(key, value);
            return true;
          }, key);
}

ErrorCase EmptyInner(const std::string& tensor) {
  return Make(tensor + "_inner_extent0", [=](Case& c) {
            TensorData* t = c.Find(tensor);
            if (t == nullptr || t->shape.back() == 0) return false;
            const int64_t inner = t->shape.back();
            for (TensorData& o : c.tensors) {
              if (o.shape.empty() || o.shape.back() != inner || !o.alias_of.empty()) continue;
              o.shape.back() = 0;
              o.SetContiguous();
            }
            return true;
          }, "> 0|" + tensor);
}

ErrorCase PaddedMiddle(const std::string& tensor) {
  return Make(tensor + "_padded_middle_stride", [=](Case& c) {
            TensorData* t = c.Find(tensor);
            if (t == nullptr || t->shape.size() != 3 || t->Numel() == 0 || t->shape[1] < 2) return false;
            t->SetContiguous();
            t->strides[1] = t->shape[2] + 1;
            t->strides[0] = t->shape[1] * t->strides[1];
            return true;
          }, tensor);
}

ErrorCase IndexPast32Bits(const std::string& tensor, bool below, const std::string& expect) {
  const std::string name = tensor + (below ? "_minus_2pow32" : "_plus_2pow32");
  return Make(name, [=](Case& c) {
            TensorData* t = c.Find(tensor);
            if (t == nullptr || t->Numel() == 0) return false;
            if (t->dtype != vt::DType::kI32 && t->dtype != vt::DType::kI64) return false;
            // j: the value the fill and its overrides put there (the case may
            // not be materialised yet).
            TensorData values = *t;
            MaterializeTensor(values, c.params.seed);
            const auto k = static_cast<int64_t>(SplitMix64(c.params.seed ^ HashName(name)) %
                                                static_cast<uint64_t>(t->Numel()));
            const double j = values.Values()[static_cast<std::size_t>(k)];
            t->dtype = vt::DType::kI64;
            t->overrides.emplace_back(k, j + (below ? -0x1p32 : 0x1p32));
            return true;
          }, expect);
}

ErrorCase ViewRank0(const std::string& tensor) {
  return ViewCorruption(tensor, "rank0", [](vt::Tensor& t) { t.rank = 0; });
}

ErrorCase ViewUnknownDType(const std::string& tensor) {
  return ViewCorruption(tensor, "unknown_dtype", [](vt::Tensor& t) { t.dtype = static_cast<vt::DType>(97); });
}

ErrorCase ViewNegativeExtent(const std::string& tensor) {
  return ViewCorruption(tensor, "negative_extent", [](vt::Tensor& t) { t.shape[0] = -1; });
}

ErrorCase ViewNegativeStride(const std::string& tensor) {
  return ViewCorruption(tensor, "negative_stride", [](vt::Tensor& t) { t.stride[t.rank - 1] = -1; });
}

ErrorCase ViewHugeExtent(const std::string& tensor) {
  return ViewCorruption(tensor, "huge_extent", [](vt::Tensor& t) {
    if (t.rank == 1) {
      t.shape[0] = int64_t{1} << 62;  // the count fits; the span (x16) does not
      t.stride[0] = 16;
      return;
    }
    for (int d = 0; d < t.rank; ++d) t.shape[d] = int64_t{1} << 32;  // the count overflows
  });
}

ErrorCase PackedOverlap(const std::string& first, const std::string& second) {
  return Make(second + "_starts_on_last_of_" + first, [=](Case& c) {
    const TensorData* a = c.Find(first);
    const TensorData* b = c.Find(second);
    if (a == nullptr || b == nullptr || a->Numel() == 0 || b->Numel() == 0) return false;
    if (!a->alias_of.empty() || !b->alias_of.empty()) return false;
    c.params.Set("layout", "packed");
    // Case order is the packing order: first, second, then the rest. second
    // starts one of its own elements before first's end, rounded up to its
    // alignment by the placement: inside first's tail, or at first's start
    // when first is shorter than that element (first leads the allocation,
    // so second overlaps nothing else and is refused for this pair only).
    std::vector<TensorData> order = {*a, *b};
    for (const TensorData& t : c.tensors) {
      if (t.name != first && t.name != second) order.push_back(t);
    }
    for (TensorData& t : order) t.pack_lead_bytes = 0;
    order[1].pack_lead_bytes = -static_cast<int64_t>(vt::SizeOf(b->dtype));
    c.tensors = std::move(order);
    return true;
  }, "overlap");
}

}  // namespace vt::conform::mut
