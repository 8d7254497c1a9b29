#include "vt/tensor.h"

#include <limits>
#include <sstream>

#include "vt/error.h"

namespace vt {
namespace {

int64_t CheckedMul(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) throw Error("tensor", "element count overflows int64");
  return r;
}

Tensor Make(void* data, DType dtype, const int64_t* shape, const int64_t* strides, std::size_t rank,
            Device device) {
  if (rank < 1 || rank > static_cast<std::size_t>(kMaxRank)) {
    throw Error("tensor", "rank must be 1..4, got " + std::to_string(rank));
  }
  Tensor t;
  t.data = data;
  t.dtype = dtype;
  t.device = device;
  t.rank = static_cast<int>(rank);
  for (std::size_t d = 0; d < rank; ++d) {
    if (shape[d] < 0) throw Error("tensor", "extents must be >= 0");
    t.shape[d] = shape[d];
  }
  if (strides != nullptr) {
    for (std::size_t d = 0; d < rank; ++d) {
      if (strides[d] < 0) throw Error("tensor", "strides must be >= 0");
      t.stride[d] = strides[d];
    }
  } else {
    int64_t s = 1;
    for (std::size_t d = rank; d-- > 0;) {
      t.stride[d] = s;
      // The product past the outermost dim is no stride: skip it, or an empty
      // view with large extents would be refused although it fits.
      if (d > 0) s = CheckedMul(s, shape[d] == 0 ? 1 : shape[d]);
    }
  }
  (void)t.Numel();  // overflow check
  return t;
}

}  // namespace

Tensor Tensor::Contiguous(void* data, DType dtype, std::initializer_list<int64_t> shape,
                          Device device) {
  return Make(data, dtype, shape.begin(), nullptr, shape.size(), device);
}

Tensor Tensor::Contiguous(void* data, DType dtype, const std::vector<int64_t>& shape,
                          Device device) {
  return Make(data, dtype, shape.data(), nullptr, shape.size(), device);
}

Tensor Tensor::Strided(void* data, DType dtype, const std::vector<int64_t>& shape,
                       const std::vector<int64_t>& strides, Device device) {
  if (shape.size() != strides.size()) throw Error("tensor", "shape and strides differ in rank");
  return Make(data, dtype, shape.data(), strides.data(), shape.size(), device);
}

int64_t Tensor::Numel() const {
  // A zero extent makes the count 0 however large the others are; checking it
  // first keeps a running product of those others from "overflowing".
  for (int d = 0; d < rank; ++d) {
    if (shape[d] == 0) return 0;
  }
  int64_t n = 1;
  for (int d = 0; d < rank; ++d) n = CheckedMul(n, shape[d]);
  return n;
}

bool Tensor::IsContiguous() const {
  if (Numel() == 0) return true;
  int64_t expect = 1;
  for (int d = rank; d-- > 0;) {
    if (stride[d] != expect) return false;
    expect *= shape[d];
  }
  return true;
}

bool Tensor::IsRowStrided() const {
  if (rank == 0 || Numel() == 0) return true;
  if (stride[rank - 1] != 1) return false;
  int64_t span = shape[rank - 1];
  for (int d = rank - 1; d-- > 0;) {
    if (stride[d] < span) return false;
    span = stride[d] * shape[d];
  }
  return true;
}

int64_t Tensor::StorageElems() const {
  if (Numel() == 0) return 0;
  // Checked: a view with huge strides must be refused by the validator's
  // operand check, not wrap into a small span that passes the overlap checks.
  int64_t last = 0;
  for (int d = 0; d < rank; ++d) {
    int64_t step = 0;
    if (__builtin_mul_overflow(shape[d] - 1, stride[d], &step) ||
        __builtin_add_overflow(last, step, &last)) {
      throw Error("tensor", "storage span overflows int64");
    }
  }
  int64_t bytes = 0;
  if (last == INT64_MAX || __builtin_mul_overflow(last + 1, static_cast<int64_t>(ElementSize()), &bytes)) {
    throw Error("tensor", "storage span overflows int64");
  }
  return last + 1;
}

int64_t Tensor::Offset(const int64_t* index) const {
  int64_t off = 0;
  for (int d = 0; d < rank; ++d) off += index[d] * stride[d];
  return off;
}

std::string Tensor::Describe() const {
  std::ostringstream os;
  os << Name(dtype) << "[";
  for (int d = 0; d < rank; ++d) os << (d ? "," : "") << shape[d];
  os << "]";
  if (!IsContiguous()) {
    os << "/s[";
    for (int d = 0; d < rank; ++d) os << (d ? "," : "") << stride[d];
    os << "]";
  }
  if (elem_kn_repacked) os << "/kn_repacked";
  return os.str();
}

}  // namespace vt
