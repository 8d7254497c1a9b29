#include "harness/catalog/mutators.h"

#include <cmath>

namespace vt::conform::mut {
namespace {

std::string Num(int64_t v) { return (v < 0 ? "minus" : "plus") + std::to_string(v < 0 ? -v : v); }

}  // namespace

ErrorCase DType(const std::string& tensor, vt::DType dt) {
  return {tensor + "_dtype_" + std::string(vt::Name(dt)), [=](Case& c) {
            TensorData* t = c.Find(tensor);
            if (t == nullptr || t->dtype == dt) return false;
            t->dtype = dt;
            t->fmt = vt::IsFloat(dt) ? oracle::FmtOf(dt) : oracle::Fmt::kF32;
            t->SetContiguous();
            return true;
          }, tensor};
}

ErrorCase Dim(const std::string& tensor, int dim, int64_t delta) {
  return {tensor + "_dim" + std::to_string(dim) + "_" + Num(delta), [=](Case& c) {
            TensorData* t = c.Find(tensor);
            if (t == nullptr || dim >= static_cast<int>(t->shape.size())) return false;
            if (t->shape[static_cast<std::size_t>(dim)] + delta < 0) return false;
            const bool padded = !t->IsContiguous();
            t->shape[static_cast<std::size_t>(dim)] += delta;
            t->SetContiguous();
            if (padded) t->SetRowPadding(1);
            return true;
          }, tensor + "|must be [|rank|element count"};
}

ErrorCase AddDim(const std::string& tensor) {
  return {tensor + "_rank_plus1", [=](Case& c) {
            TensorData* t = c.Find(tensor);
            if (t == nullptr || t->shape.size() >= 4) return false;
            t->shape.insert(t->shape.begin(), 1);
            t->SetContiguous();
            return true;
          }, tensor + "|must be [|rank|element count"};
}

ErrorCase DropDim(const std::string& tensor) {
  return {tensor + "_rank_minus1", [=](Case& c) {
            TensorData* t = c.Find(tensor);
            if (t == nullptr || t->shape.size() < 2) return false;
            t->shape[1] *= t->shape[0];
            t->shape.erase(t->shape.begin());
            t->SetContiguous();
            return true;
          }, tensor + "|must be [|rank|element count"};
}

ErrorCase Strided(const std::string& tensor) {
  return {tensor + "_padded_rows", [=](Case& c) {
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
          }, tensor};
}

ErrorCase InnerStride(const std::string& tensor) {
  return {tensor + "_inner_stride2", [=](Case& c) {
            TensorData* t = c.Find(tensor);
            if (t == nullptr || t->Numel() == 0 || t->shape.back() < 2) return false;
            // Keep every outer stride a multiple of the widened inner span.
            t->strides.back() = 2;
            for (std::size_t d = t->shape.size() - 1; d-- > 0;) {
              t->strides[d] = t->strides[d + 1] * std::max<int64_t>(t->shape[d + 1], 1);
            }
            return true;
          }, tensor};
}

ErrorCase OverlappingRows(const std::string& tensor) {
  return {tensor + "_overlapping_rows", [=](Case& c) {
            TensorData* t = c.Find(tensor);
            if (t == nullptr || t->shape.size() < 2 || t->shape[0] < 2 || t->strides[0] < 2) return false;
            t->SetContiguous();
            t->strides[0] -= 1;  // row i+1 starts inside row i
            return true;
          }, tensor};
}

ErrorCase NullData(const std::string& tensor) {
  return {tensor + "_null", [=](Case& c) {
            TensorData* t = c.Find(tensor);
            if (t == nullptr || t->Numel() == 0) return false;
            t->null_data = true;
            return true;
          }, "null"};
}

ErrorCase OtherDevice(const std::string& tensor) {
  return {tensor + "_on_cuda", [=](Case& c) {
            TensorData* t = c.Find(tensor);
            if (t == nullptr) return false;
            t->device = vt::DeviceType::kCUDA;
            return true;
          }, "device"};
}

ErrorCase Alias(const std::string& out, const std::string& in) {
  return {out + "_overlaps_" + in, [=](Case& c) {
            TensorData* o = c.Find(out);
            const TensorData* i = c.Find(in);
            if (o == nullptr || i == nullptr || o->Numel() == 0 || i->Numel() == 0) return false;
            // Only meaningful when the view fits inside the target's storage.
            const int64_t need = o->StorageElems() * static_cast<int64_t>(vt::SizeOf(o->dtype));
            const int64_t have = i->StorageElems() * static_cast<int64_t>(vt::SizeOf(i->dtype));
            if (need > have) return false;
            o->alias_of = in;
            o->alias_offset = 0;
            return true;
          }, "overlap"};
}

ErrorCase Arg(const std::string& key, Json value) {
  std::string label = value.is_number_float() && std::isnan(value.get<double>()) ? "nan" : value.dump();
  for (char& ch : label) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return {key + "_" + label, [=](Case& c) {
            if (!c.params.Has(key)) return false;
            c.params.Set(key, value);
            return true;
          }, key};
}

ErrorCase EmptyInner(const std::string& tensor) {
  return {tensor + "_inner_extent0", [=](Case& c) {
            TensorData* t = c.Find(tensor);
            if (t == nullptr || t->shape.back() == 0) return false;
            t->shape.back() = 0;
            t->SetContiguous();
            return true;
          }, "> 0|" + tensor + "|must be ["};
}

}  // namespace vt::conform::mut
