// Validation helpers for the API layer. Every check throws vt::Error(op, the
// violated condition) and never touches operand bytes, so an op can run all
// of its checks before dispatching (validate before mutate).
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "vt/context.h"
#include "vt/error.h"
#include "vt/tensor.h"

namespace vt::api {

class Checker {
 public:
  explicit Checker(const char* op) : op_(op) {}

  [[noreturn]] void Fail(const std::string& condition) const;
  void Require(bool ok, const std::string& condition) const {
    if (!ok) Fail(condition);
  }

  // Well-formed view: rank 1..4, known dtype, non-negative extents/strides,
  // data present when the view is non-empty, on the context's backend device.
  void Operand(const ExecContext& ctx, const Tensor& t, const char* name) const;
  void Rank(const Tensor& t, const char* name, int rank) const;
  void RankIn(const Tensor& t, const char* name, int lo, int hi) const;
  void DType(const Tensor& t, const char* name, std::initializer_list<vt::DType> allowed) const;
  void FloatIn(const Tensor& t, const char* name) const;   // f32 / f16 / bf16
  void FloatOut(const Tensor& t, const char* name) const;  // f32 / bf16
  void Contiguous(const Tensor& t, const char* name) const;
  void RowStrided(const Tensor& t, const char* name) const;  // inner packed, outer >= span
  void Shape(const Tensor& t, const char* name, const std::vector<int64_t>& shape) const;
  void SameShape(const Tensor& a, const char* an, const Tensor& b, const char* bn) const;
  void SameNumel(const Tensor& a, const char* an, const Tensor& b, const char* bn) const;
  void SameDType(const Tensor& a, const char* an, const Tensor& b, const char* bn) const;
  // The storage spans of a and b (data .. data + StorageElems) do not overlap.
  void NoOverlap(const Tensor& a, const char* an, const Tensor& b, const char* bn) const;
  void PositiveFinite(float v, const char* name) const;
  void Finite(float v, const char* name) const;

 private:
  const char* op_;
};

std::string ShapeString(const std::vector<int64_t>& shape);

}  // namespace vt::api
