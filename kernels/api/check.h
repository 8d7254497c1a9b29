// Validation helpers for the API layer. Every check throws vt::Error(op, the
// violated condition, its check site) and never touches operand bytes, so an
// op can run all of its checks before dispatching (validate before mutate).
// Each condition is a named check site (vt/check_sites.h): the typed checks
// name theirs from the check and the operand ("contiguous(weight)"); a
// free-form Require names its own ("recipe.slot_range").
#pragma once

#include <functional>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include "vt/check_sites.h"
#include "vt/context.h"
#include "vt/error.h"
#include "vt/tensor.h"

namespace vt::api {

class Checker {
 public:
  explicit Checker(const char* op) : op_(op) {}

  // A free-form condition at the named site (a short, stable, dotted name).
  void Require(const char* site, bool ok, const std::string& condition) const;
  // The same, with the message built only when the check fails: a literal,
  // or a callable returning the message (for one that formats values).
  void Require(const char* site, bool ok, const char* condition) const;
  template <class Message, class = std::enable_if_t<std::is_invocable_r_v<std::string, const Message&>>>
  void Require(const char* site, bool ok, const Message& condition) const {
    if (CheckSiteObserver* o = GetCheckSiteObserver(); o != nullptr) o->Evaluated(op_, site);
    if (!ok) Fail(site, condition());
  }

  // Well-formed view: rank 1..4, known dtype, non-negative extents/strides,
  // data present and naturally aligned (a multiple of the element size; site
  // operand.aligned) when the view is non-empty, on the context's backend
  // device, and no elem_kn_repacked flag (site operand.kn_repacked): only the
  // operand an op declares as honouring the flag is checked with
  // OperandKnRepackable.
  void Operand(const ExecContext& ctx, const Tensor& t, const char* name) const;
  void OperandKnRepackable(const ExecContext& ctx, const Tensor& t, const char* name) const;
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
  using MessageFn = std::function<std::string()>;
  // Reports site `kind(a[,b])` to the observer and throws when !ok, with the
  // message `condition` builds (called only then).
  template <class Message>
  void Site(bool ok, const char* kind, const char* a, const char* b, const Message& condition) const {
    if (ok && GetCheckSiteObserver() == nullptr) return;  // the common path builds nothing
    Evaluated(ok, kind, a, b, MessageFn(condition));
  }
  void Evaluated(bool ok, const char* kind, const char* a, const char* b, const MessageFn& condition) const;
  [[noreturn]] void Fail(const std::string& site, const std::string& condition) const;

  void OperandView(const ExecContext& ctx, const Tensor& t, const char* name) const;

  const char* op_;
};

std::string ShapeString(const std::vector<int64_t>& shape);

// The values of an operand the validation must read (indices to range-check,
// positions, a bias to screen), readable on the host: on the CPU backend the
// operand itself; when it lives in a backend's device memory, a host copy of
// its storage span with the view re-bound to it - a CUDA pointer cannot be
// dereferenced on the host. Run after Operand() has accepted the view.
class HostValues {
 public:
  HostValues(const ExecContext& ctx, const Tensor& t);
  const Tensor& operator*() const { return view_; }
  const Tensor* operator->() const { return &view_; }

 private:
  std::vector<unsigned char> copy_;
  Tensor view_;
};

}  // namespace vt::api
