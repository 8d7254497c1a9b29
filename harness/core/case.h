// The case model: Params plus named tensors (dtype, shape, strides, role, the
// bytes of their storage). A strided tensor's storage includes its gaps, which
// are filled with NaN (floats) or a byte pattern so a kernel reading or
// writing a gap is caught. Tensor contents derive only from (seed, tensor
// name, element index): never from the thread count or the order of draws.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/core/params.h"
#include "oracles/format.h"
#include "vt/tensor.h"

namespace vt::conform {

enum class Role { kInput, kOutput, kInPlace };
std::string_view Name(Role r);

// How a tensor's logical elements are filled.
struct Fill {
  enum class Kind { kNormal, kUniform, kConst, kPoison, kInteger, kBits } kind = Kind::kPoison;
  // normal: mean a, stddev b; uniform: [a, b); const: a; integer: the whole
  // numbers a..b, uniformly (exact in every float dtype for small bounds);
  // bits: a = the fraction of float elements whose exponent field is forced to all ones.
  double a = 0.0, b = 0.0;
  static Fill Normal(double mean, double stddev) { return {Kind::kNormal, mean, stddev}; }
  static Fill Uniform(double lo, double hi) { return {Kind::kUniform, lo, hi}; }
  static Fill Const(double v) { return {Kind::kConst, v, 0.0}; }
  static Fill Poison() { return {Kind::kPoison, 0.0, 0.0}; }
  static Fill Integer(double lo, double hi) { return {Kind::kInteger, lo, hi}; }
  // Raw seed-derived bit patterns (every pattern of the dtype, signalling NaNs
  // and NaN payloads included: what a byte-exact move must carry); for float
  // dtypes a fraction `specials` of the elements gets the all-ones exponent
  // (inf or a NaN with a random payload), which uniform patterns rarely hit.
  static Fill Bits(double specials) { return {Kind::kBits, specials, 0.0}; }
};

struct TensorData {
  std::string name;
  vt::DType dtype = vt::DType::kF32;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;  // elements; contiguous unless a layout says otherwise
  Role role = Role::kInput;
  Fill fill;
  // u8 payloads carry a semantic format (fp8 e4m3); floats use their dtype's.
  oracle::Fmt fmt = oracle::Fmt::kF32;
  // Negative-test knobs: bind a null pointer / claim another device.
  bool null_data = false;
  // A weight the loader repacked (vt::Tensor::elem_kn_repacked): describe it
  // here as the [N,K] view of its [K,N] bytes (strides {1, N}); the bound
  // view reads [N,K] with row-major strides and the flag set, as the loader
  // hands it to an op.
  bool kn_repacked = false;
  vt::DeviceType device = vt::DeviceType::kCPU;
  // Bind this view onto another tensor's storage (+ offset elements of that
  // tensor) to build overlapping operands.
  std::string alias_of;
  int64_t alias_offset = 0;
  // "packed" layout only (harness/core/workspace.h): bytes between the end of
  // the previous tensor and this one, before the start is rounded up to this
  // tensor's alignment; a lead of minus one element of this tensor overlaps
  // the previous tensor's tail (error cases: a partial overlap).
  int64_t pack_lead_bytes = 0;
  // Error cases only: the storage starts this many bytes past its naturally
  // aligned place (every layout), so its data pointer breaks the alignment
  // contract when the element size is > 1.
  int64_t misalign_bytes = 0;
  // Values put over the fill by the case's "values" knob (harness/catalog/
  // values.h): logical element index -> value. Part of the fill, so every
  // (re)materialisation - a mutated error case, another tensor order -
  // gives the same bytes. Indices past Numel() (a mutated shape) are dropped.
  std::vector<std::pair<int64_t, double>> overrides;
  // Raw bit patterns put over the fill after `overrides` (logical element
  // index -> the element's bytes, little endian, in the low bits): what no
  // double can say - a signalling NaN, a NaN's exact payload - survives
  // every (re)materialisation byte for byte. Indices past Numel() are dropped.
  std::vector<std::pair<int64_t, uint64_t>> bit_overrides;
  std::vector<uint8_t> storage;  // StorageElems() * element size bytes

  int64_t Numel() const;
  int64_t StorageElems() const;
  bool IsContiguous() const;
  vt::Tensor View(void* data) const;
  // Element offsets (in storage elements) of the logical elements, row-major.
  std::vector<int64_t> LogicalOffsets() const;
  // Logical elements decoded to double (floats by dtype, u8 by fmt, ints as is).
  std::vector<double> Values() const;
  // Overwrite the logical elements, encoding each value to the dtype/fmt.
  void SetValues(const std::vector<double>& values);
  // Raw bytes of the logical elements, row-major (gaps dropped).
  std::vector<uint8_t> LogicalBytes() const;
  void SetContiguous();                       // strides = row-major of shape
  void SetRowPadding(int64_t pad_elems);      // the outermost stride padded by pad elements
  void SetNestedPadding(int64_t pad_elems);   // every stride but the innermost padded (row-strided views)
};

struct Case {
  Params params;
  std::vector<TensorData> tensors;

  TensorData& Add(const std::string& name, vt::DType dtype, std::vector<int64_t> shape, Role role,
                  Fill fill);
  TensorData& Input(const std::string& name, vt::DType dtype, std::vector<int64_t> shape, Fill fill) {
    return Add(name, dtype, std::move(shape), Role::kInput, fill);
  }
  TensorData& Output(const std::string& name, vt::DType dtype, std::vector<int64_t> shape) {
    return Add(name, dtype, std::move(shape), Role::kOutput, Fill::Poison());
  }
  TensorData* Find(const std::string& name);
  const TensorData* Find(const std::string& name) const;
  const TensorData& Get(const std::string& name) const;
  TensorData& Get(const std::string& name);
  std::string Identity() const { return params.Identity(); }
};

// (Re)allocate storage for every tensor and fill it from the case seed.
void Materialize(Case& c);
void MaterializeTensor(TensorData& t, uint64_t case_seed);

// Decode / encode one element of dtype (u8 through fmt).
double DecodeElement(vt::DType dt, oracle::Fmt fmt, const uint8_t* p);
void EncodeElement(vt::DType dt, oracle::Fmt fmt, double v, uint8_t* p);

}  // namespace vt::conform
