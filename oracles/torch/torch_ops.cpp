#include "oracles/torch/torch_ops.h"

#include <cmath>
#include <limits>

namespace vt::torchref {

at::ScalarType TorchType(vt::DType dt) {
  switch (dt) {
    case vt::DType::kF32: return at::kFloat;
    case vt::DType::kF16: return at::kHalf;
    case vt::DType::kBF16: return at::kBFloat16;
    case vt::DType::kI8: return at::kChar;
    case vt::DType::kU8: return at::kByte;
    case vt::DType::kI32: return at::kInt;
    case vt::DType::kI64: return at::kLong;
  }
  throw Error("unknown dtype");
}

at::Tensor View(const Operand& o) {
  int64_t n = 1;
  for (const int64_t d : o.shape) n *= d;
  if (n == 0) return at::empty(o.shape, at::TensorOptions().dtype(TorchType(o.dtype)));
  if (o.data == nullptr) throw Error("an operand without storage");
  // from_blob never writes: the const_cast only meets its signature.
  return at::from_blob(const_cast<uint8_t*>(o.data), o.shape, o.strides,
                       at::TensorOptions().dtype(TorchType(o.dtype)));
}

at::Tensor Load(const Operand& o) {
  const at::Tensor v = View(o);
  if (o.code == Code::kFp8E4M3) return DecodeE4M3(v.contiguous());
  return v.to(at::kDouble).contiguous();
}

at::Tensor RoundTo(const at::Tensor& t, vt::DType dt) {
  if (dt == vt::DType::kF32) return RoundF32(t);
  // float64 -> f32 first: the value an f32 computation holds before its store.
  return t.to(at::kFloat).to(TorchType(dt)).to(at::kDouble);
}

namespace {

// Value tables of the two small formats, written from their definitions.
at::Tensor E4M3Table() {
  std::vector<double> v(256);
  for (int code = 0; code < 256; ++code) {
    const int sign = code >> 7, exp = (code >> 3) & 0xF, man = code & 0x7;
    double mag;
    if (exp == 0xF && man == 0x7) {
      mag = std::numeric_limits<double>::quiet_NaN();
    } else if (exp == 0) {
      mag = std::ldexp(man / 8.0, -6);
    } else {
      mag = std::ldexp(1.0 + man / 8.0, exp - 7);
    }
    v[static_cast<size_t>(code)] = sign != 0 ? -mag : mag;
  }
  return at::tensor(v, at::kDouble);
}

at::Tensor E2M1Table() {
  const double mags[8] = {0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0};
  std::vector<double> v(16);
  for (int code = 0; code < 16; ++code) v[static_cast<size_t>(code)] = (code & 8) != 0 ? -mags[code & 7] : mags[code & 7];
  return at::tensor(v, at::kDouble);
}

at::Tensor Lookup(const at::Tensor& table, const at::Tensor& codes) {
  return table.index_select(0, codes.to(at::kLong).flatten()).view(codes.sizes());
}

}  // namespace

at::Tensor DecodeE4M3(const at::Tensor& codes) {
  static const at::Tensor table = E4M3Table();
  return Lookup(table, codes);
}

at::Tensor DecodeE2M1(const at::Tensor& nibbles) {
  static const at::Tensor table = E2M1Table();
  return Lookup(table, nibbles);
}

// Round to a grid of `man_bits` mantissa bits whose smallest normal exponent
// is `emin`: the quantum at |x| is 2^(max(floor(log2|x|), emin) - man_bits);
// torch's round is half to even, the tie rule of both formats.
static at::Tensor RoundGrid(const at::Tensor& x, int man_bits, int emin, double largest) {
  const at::Tensor mag = x.abs().clamp_max(largest);
  const at::Tensor e = at::floor(at::log2(mag.clamp_min(std::ldexp(1.0, emin)))).clamp_min(emin);
  const at::Tensor quantum = at::pow(2.0, e - man_bits);
  const at::Tensor r = (at::round(mag / quantum) * quantum).clamp_max(largest);
  return at::where(x.isnan(), x, at::copysign(r, x));
}

at::Tensor RoundE4M3(const at::Tensor& x) { return RoundGrid(x, 3, -6, 448.0); }
at::Tensor RoundE2M1(const at::Tensor& x) { return RoundGrid(x, 1, 0, 6.0); }

std::vector<double> Values(const at::Tensor& t) {
  const at::Tensor c = t.to(at::kDouble).contiguous();
  const double* p = c.data_ptr<double>();
  return std::vector<double>(p, p + c.numel());
}

Output Out(const at::Tensor& f64, const at::Tensor& in_dtype) {
  Output o;
  o.f64 = Values(f64);
  if (in_dtype.defined()) o.in_dtype = Values(in_dtype);
  return o;
}

vt::DType DTypeArg(const Input& in, const std::string& key) {
  const std::string name = in.Str(key);
  const auto dt = vt::ParseDType(name);
  if (!dt) throw Error("knob '" + key + "' names no dtype: '" + name + "'");
  return *dt;
}

}  // namespace vt::torchref
