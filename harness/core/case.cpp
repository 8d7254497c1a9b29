#include "harness/core/case.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

#include "harness/core/rng.h"
#include "oracles/bits.h"

namespace vt::conform {

std::string_view Name(Role r) {
  switch (r) {
    case Role::kInput: return "input";
    case Role::kOutput: return "output";
    case Role::kInPlace: return "inplace";
  }
  return "?";
}

// Shapes reach here from golden headers and manifests, not only from our own
// generators: a product past int64 must be refused by name, not wrap (signed
// overflow is undefined behaviour, and a wrapped count can look small).
int64_t TensorData::Numel() const {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) throw std::invalid_argument("tensor '" + name + "': negative extent " + std::to_string(d));
    if (__builtin_mul_overflow(n, d, &n)) {
      throw std::invalid_argument("tensor '" + name + "': element count overflows int64");
    }
  }
  return n;
}

int64_t TensorData::StorageElems() const {
  if (Numel() == 0) return 0;
  int64_t last = 0, term = 0;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (__builtin_mul_overflow(shape[d] - 1, strides[d], &term) || __builtin_add_overflow(last, term, &last)) {
      throw std::invalid_argument("tensor '" + name + "': storage extent overflows int64");
    }
  }
  return last + 1;
}

bool TensorData::IsContiguous() const {
  int64_t expect = 1;
  for (std::size_t d = shape.size(); d-- > 0;) {
    if (strides[d] != expect) return false;
    // Past int64 no stride can match the next extent: not contiguous.
    if (__builtin_mul_overflow(expect, shape[d], &expect)) return d == 0;
  }
  return true;
}

vt::Tensor TensorData::View(void* data) const {
  // The [N,K] view of [K,N] bytes binds as the loader's form: [N,K] shape,
  // row-major strides, the flag. Other strides (an error case reshaped it) bind
  // as they are, flag kept.
  if (kn_repacked && shape.size() == 2 && strides == std::vector<int64_t>{1, std::max<int64_t>(shape[0], 1)}) {
    std::vector<int64_t> row_major(shape.size(), 1);
    for (std::size_t d = shape.size(); d-- > 1;) row_major[d - 1] = row_major[d] * std::max<int64_t>(shape[d], 1);
    vt::Tensor t = vt::Tensor::Strided(data, dtype, shape, row_major, vt::Device{device, 0});
    t.elem_kn_repacked = true;
    return t;
  }
  vt::Tensor t = vt::Tensor::Strided(data, dtype, shape, strides, vt::Device{device, 0});
  t.elem_kn_repacked = kn_repacked;
  return t;
}

std::vector<int64_t> TensorData::LogicalOffsets() const {
  const int64_t n = Numel();
  std::vector<int64_t> offs(static_cast<std::size_t>(n));
  std::vector<int64_t> idx(shape.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t off = 0;
    for (std::size_t d = 0; d < shape.size(); ++d) off += idx[d] * strides[d];
    offs[static_cast<std::size_t>(k)] = off;
    for (std::size_t d = shape.size(); d-- > 0;) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  return offs;
}

double DecodeElement(vt::DType dt, oracle::Fmt fmt, const uint8_t* p) {
  switch (dt) {
    case vt::DType::kF32: {
      float f;
      std::memcpy(&f, p, 4);
      return f;
    }
    case vt::DType::kF16:
    case vt::DType::kBF16: {
      uint16_t h;
      std::memcpy(&h, p, 2);
      return oracle::DecodeBits(oracle::FmtOf(dt), h);
    }
    case vt::DType::kU8:
      if (fmt == oracle::Fmt::kFp8E4M3) return oracle::DecodeBits(fmt, *p);
      return *p;
    case vt::DType::kI8: return static_cast<int8_t>(*p);
    case vt::DType::kI32: {
      int32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case vt::DType::kI64: {
      int64_t v;
      std::memcpy(&v, p, 8);
      return static_cast<double>(v);
    }
  }
  return std::nan("");
}

void EncodeElement(vt::DType dt, oracle::Fmt fmt, double v, uint8_t* p) {
  switch (dt) {
    case vt::DType::kF32: {
      const float f = static_cast<float>(v);
      std::memcpy(p, &f, 4);
      return;
    }
    // Narrow floats: the kernels round from an f32 value, so the double is
    // first made an f32 (fills draw doubles), then rounded once to the format.
    case vt::DType::kF16:
    case vt::DType::kBF16: {
      const auto h = static_cast<uint16_t>(oracle::EncodeBits(oracle::FmtOf(dt), static_cast<float>(v)));
      std::memcpy(p, &h, 2);
      return;
    }
    case vt::DType::kU8:
      *p = fmt == oracle::Fmt::kFp8E4M3
               ? static_cast<uint8_t>(oracle::EncodeBits(fmt, static_cast<float>(v)))
               : static_cast<uint8_t>(v);
      return;
    case vt::DType::kI8: *p = static_cast<uint8_t>(static_cast<int8_t>(v)); return;
    case vt::DType::kI32: {
      const int32_t i = static_cast<int32_t>(v);
      std::memcpy(p, &i, 4);
      return;
    }
    case vt::DType::kI64: {
      const int64_t i = static_cast<int64_t>(v);
      std::memcpy(p, &i, 8);
      return;
    }
  }
}

std::vector<double> TensorData::Values() const {
  const std::size_t es = vt::SizeOf(dtype);
  std::vector<double> out;
  out.reserve(static_cast<std::size_t>(Numel()));
  for (int64_t off : LogicalOffsets()) out.push_back(DecodeElement(dtype, fmt, storage.data() + off * es));
  return out;
}

void TensorData::SetValues(const std::vector<double>& values) {
  const std::size_t es = vt::SizeOf(dtype);
  const auto offs = LogicalOffsets();
  if (values.size() != offs.size()) throw std::invalid_argument("SetValues: count mismatch for " + name);
  for (std::size_t k = 0; k < offs.size(); ++k) EncodeElement(dtype, fmt, values[k], storage.data() + offs[k] * es);
}

std::vector<uint8_t> TensorData::LogicalBytes() const {
  const std::size_t es = vt::SizeOf(dtype);
  std::vector<uint8_t> out;
  out.reserve(static_cast<std::size_t>(Numel()) * es);
  for (int64_t off : LogicalOffsets()) {
    const uint8_t* p = storage.data() + off * es;
    out.insert(out.end(), p, p + es);
  }
  return out;
}

void TensorData::SetContiguous() {
  strides.assign(shape.size(), 1);
  for (std::size_t d = shape.size(); d-- > 1;) strides[d - 1] = strides[d] * std::max<int64_t>(shape[d], 1);
}

void TensorData::SetRowPadding(int64_t pad) {
  SetContiguous();
  if (shape.size() < 2) return;
  // Pad the outermost stride only: inner dims stay packed.
  strides[0] = strides[0] + pad;
}

void TensorData::SetNestedPadding(int64_t pad) {
  SetContiguous();
  // From the inside out: a rank-3 view [A,B,C] gets strides
  // [B*(C+pad)+pad, C+pad, 1], so a kernel that addresses a middle dim as if
  // packed reads or writes the gaps and fails.
  for (std::size_t d = shape.size(); d-- > 1;) {
    strides[d - 1] = strides[d] * std::max<int64_t>(shape[d], 1) + pad;
  }
}

TensorData& Case::Add(const std::string& name, vt::DType dtype, std::vector<int64_t> shape,
                      Role role, Fill fill) {
  TensorData t;
  t.name = name;
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.role = role;
  t.fill = fill;
  t.fmt = vt::IsFloat(dtype) ? oracle::FmtOf(dtype) : oracle::Fmt::kF32;
  t.SetContiguous();
  tensors.push_back(std::move(t));
  return tensors.back();
}

TensorData* Case::Find(const std::string& name) {
  for (auto& t : tensors) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

const TensorData* Case::Find(const std::string& name) const {
  for (const auto& t : tensors) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

const TensorData& Case::Get(const std::string& name) const {
  const TensorData* t = Find(name);
  if (t == nullptr) throw std::out_of_range("case " + Identity() + " has no tensor '" + name + "'");
  return *t;
}

TensorData& Case::Get(const std::string& name) {
  TensorData* t = Find(name);
  if (t == nullptr) throw std::out_of_range("case " + Identity() + " has no tensor '" + name + "'");
  return *t;
}

namespace {

// Gap / poison byte patterns: NaN for floats, 0x7F (NaN) for fp8 payloads.
void FillPattern(TensorData& t, bool gap) {
  const std::size_t es = vt::SizeOf(t.dtype);
  uint8_t pat[8] = {};
  switch (t.dtype) {
    case vt::DType::kF32: {
      const uint32_t nan = gap ? 0x7FA5A5A5u : 0x7FC0DEADu;
      std::memcpy(pat, &nan, 4);
      break;
    }
    case vt::DType::kF16:
    case vt::DType::kBF16: {
      const uint16_t nan = t.dtype == vt::DType::kF16 ? (gap ? 0x7E5Au : 0x7E01u) : (gap ? 0x7FA5u : 0x7FC1u);
      std::memcpy(pat, &nan, 2);
      break;
    }
    case vt::DType::kU8:
      pat[0] = t.fmt == oracle::Fmt::kFp8E4M3 ? 0x7F : 0xA5;
      break;
    default:
      std::memset(pat, 0xA5, sizeof pat);
  }
  for (std::size_t i = 0; i + es <= t.storage.size(); i += es) std::memcpy(&t.storage[i], pat, es);
}

}  // namespace

namespace {

void ApplyBitOverrides(TensorData& t, const std::vector<int64_t>& offs) {
  const std::size_t es = vt::SizeOf(t.dtype);
  for (const auto& [k, bits] : t.bit_overrides) {
    if (k >= 0 && k < static_cast<int64_t>(offs.size())) {
      std::memcpy(&t.storage[static_cast<std::size_t>(offs[static_cast<std::size_t>(k)]) * es], &bits, es);  // little endian
    }
  }
}

// Fill::Bits: each logical element's bytes from its own stream value; for a
// float dtype, a seed-chosen fraction of the elements gets the exponent field
// all ones. Overrides are encoded over the patterns like any fill's.
void MaterializeBits(TensorData& t, uint64_t case_seed, uint64_t stream) {
  const std::size_t es = vt::SizeOf(t.dtype);
  uint64_t exp_mask = 0;
  if (t.dtype == vt::DType::kF32) exp_mask = 0x7F800000u;
  if (t.dtype == vt::DType::kF16) exp_mask = 0x7C00u;
  if (t.dtype == vt::DType::kBF16) exp_mask = 0x7F80u;
  const auto offs = t.LogicalOffsets();
  for (std::size_t k = 0; k < offs.size(); ++k) {
    uint64_t bits = StreamValue(case_seed, stream, k);
    if (exp_mask != 0 && Unit(StreamValue(case_seed, stream ^ 0xb175, k)) < t.fill.a) bits |= exp_mask;
    std::memcpy(&t.storage[static_cast<std::size_t>(offs[k]) * es], &bits, es);  // little endian
  }
  for (const auto& [k, v] : t.overrides) {
    if (k >= 0 && k < static_cast<int64_t>(offs.size())) {
      EncodeElement(t.dtype, t.fmt, v, &t.storage[static_cast<std::size_t>(offs[static_cast<std::size_t>(k)]) * es]);
    }
  }
  ApplyBitOverrides(t, offs);
}

}  // namespace

void MaterializeTensor(TensorData& t, uint64_t case_seed) {
  t.storage.assign(static_cast<std::size_t>(t.StorageElems()) * vt::SizeOf(t.dtype), 0);
  FillPattern(t, /*gap=*/true);  // gaps keep this; logical elements are overwritten
  if (t.fill.kind == Fill::Kind::kPoison) {
    TensorData tmp = t;
    FillPattern(tmp, /*gap=*/false);
    const std::size_t es = vt::SizeOf(t.dtype);
    for (int64_t off : t.LogicalOffsets()) std::memcpy(&t.storage[off * es], &tmp.storage[off * es], es);
    return;
  }
  const uint64_t stream = HashName(t.name);
  if (t.fill.kind == Fill::Kind::kBits) {
    MaterializeBits(t, case_seed, stream);
    return;
  }
  std::vector<double> values(static_cast<std::size_t>(t.Numel()));
  for (std::size_t k = 0; k < values.size(); ++k) {
    switch (t.fill.kind) {
      case Fill::Kind::kNormal:
        values[k] = t.fill.a + t.fill.b * Gaussian(case_seed, stream, k);
        break;
      case Fill::Kind::kUniform:
        values[k] = t.fill.a + (t.fill.b - t.fill.a) * Unit(StreamValue(case_seed, stream, k));
        break;
      case Fill::Kind::kConst:
        values[k] = t.fill.a;
        break;
      case Fill::Kind::kInteger:
        values[k] = std::min(t.fill.b, t.fill.a + std::floor((t.fill.b - t.fill.a + 1.0) *
                                                             Unit(StreamValue(case_seed, stream, k))));
        break;
      case Fill::Kind::kPoison:
      case Fill::Kind::kBits:  // handled above
        break;
    }
  }
  for (const auto& [k, v] : t.overrides) {
    if (k >= 0 && k < static_cast<int64_t>(values.size())) values[static_cast<std::size_t>(k)] = v;
  }
  t.SetValues(values);
  if (!t.bit_overrides.empty()) ApplyBitOverrides(t, t.LogicalOffsets());
}

void Materialize(Case& c) {
  for (auto& t : c.tensors) MaterializeTensor(t, c.params.seed);
}

}  // namespace vt::conform
