#include "harness/catalog/claims.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

#include "harness/core/rng.h"

namespace vt::conform {

TensorData CopyTensor(const TensorData& src, const std::string& name, Role role) {
  TensorData t = src;
  t.name = name;
  t.role = role;
  t.SetContiguous();
  t.storage = src.LogicalBytes();
  return t;
}

TensorData TensorFromValues(const std::string& name, vt::DType dtype, std::vector<int64_t> shape,
                            Role role, const std::vector<double>& values) {
  TensorData t;
  t.name = name;
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.role = role;
  t.fmt = vt::IsFloat(dtype) ? oracle::FmtOf(dtype) : oracle::Fmt::kF32;
  t.SetContiguous();
  t.storage.assign(static_cast<std::size_t>(t.Numel()) * vt::SizeOf(dtype), 0);
  t.SetValues(values);
  return t;
}

std::string DiffBytes(const TensorData& a, const TensorData& b, bool any_nan) {
  if (a.dtype != b.dtype) return a.name + " is " + std::string(vt::Name(a.dtype)) + ", " + b.name + " is " + std::string(vt::Name(b.dtype));
  if (a.Numel() != b.Numel()) return a.name + " and " + b.name + " differ in element count";
  const auto ab = a.LogicalBytes(), bb = b.LogicalBytes();
  const std::size_t es = vt::SizeOf(a.dtype);
  for (std::size_t i = 0; i < ab.size(); ++i) {
    if (ab[i] != bb[i]) {
      const std::size_t k = i / es;
      const double va = DecodeElement(a.dtype, a.fmt, ab.data() + k * es);
      const double vb = DecodeElement(b.dtype, b.fmt, bb.data() + k * es);
      if (any_nan && a.dtype != vt::DType::kU8 && std::isnan(va) && std::isnan(vb)) {
        i = (k + 1) * es - 1;  // the rest of this element
        continue;
      }
      char buf[256];
      std::snprintf(buf, sizeof buf, "%s vs %s differ first at flat element %zu: %.9g vs %.9g",
                    a.name.c_str(), b.name.c_str(), k, va, vb);
      return buf;
    }
  }
  return "";
}

namespace {

// [begin, end) rows of a row-major view holding `rows` rows (numel / rows
// elements each), as a contiguous tensor. A view whose leading extent is not
// the row count (an any-shape operand drawn flat or reversed) is sliced in its
// flat order and comes back 1-D: only its element count is constrained.
TensorData SliceLeading(const TensorData& t, int64_t rows, int64_t begin, int64_t end, bool flat) {
  TensorData s = t;
  const int64_t per_row = rows == 0 ? 0 : t.Numel() / rows;
  if (flat || t.shape.empty() || t.shape[0] != rows) {
    s.shape = {(end - begin) * per_row};
  } else {
    s.shape[0] = end - begin;
  }
  s.SetContiguous();
  const auto bytes = t.LogicalBytes();
  const std::size_t row_bytes = static_cast<std::size_t>(per_row) * vt::SizeOf(t.dtype);
  s.storage.assign(bytes.begin() + static_cast<std::ptrdiff_t>(begin * row_bytes),
                   bytes.begin() + static_cast<std::ptrdiff_t>(end * row_bytes));
  return s;
}

Claim SliceClaim(std::vector<std::string> names, bool flat) {
  Claim c;
  c.name = flat ? "flat_slice" : "row_slice";
  c.statement = flat ? "a sub-range of the flat elements run alone gives the same bytes"
                     : "a sub-range of the rows run alone gives the same bytes (batch invariance)";
  // Catalog entries name the leading (row) extent "T": a strict sub-range needs 2 rows.
  c.applies = [](const Params& p) { return !p.Has("T") || p.Int("T") >= 2; };
  c.check = [names, flat](const OpSpec& op, const Case& full, const vt::ExecContext& ctx) {
    const TensorData& first = full.Get(names.front());
    const int64_t rows = flat ? first.Numel() : first.shape[0];
    if (rows < 2) return ClaimOutcome::NotApplicable("fewer than 2 rows");
    const uint64_t h = SplitMix64(full.params.seed ^ 0x51ce);
    int64_t begin = static_cast<int64_t>(h % static_cast<uint64_t>(rows));
    int64_t len = 1 + static_cast<int64_t>((h >> 32) % static_cast<uint64_t>(rows - begin));
    if (begin == 0 && len == rows) len = rows - 1;  // a strict sub-range
    Case part = full;
    for (const auto& n : names) {
      const TensorData* t = full.Find(n);
      if (t != nullptr) part.Get(n) = SliceLeading(*t, rows, begin, begin + len, flat);
    }
    const Execution a = Execute(op, full, ctx);
    const Execution b = Execute(op, part, ctx);
    if (!a.guard_error.empty()) return ClaimOutcome::Violated(a.guard_error);
    if (!b.guard_error.empty()) return ClaimOutcome::Violated(b.guard_error);
    for (const auto& n : names) {
      const TensorData* t = a.after.Find(n);
      if (t == nullptr || t->role == Role::kInput) continue;
      const std::string d = DiffBytes(SliceLeading(*t, rows, begin, begin + len, flat), b.after.Get(n));
      if (!d.empty()) {
        return ClaimOutcome::Violated("rows [" + std::to_string(begin) + "," +
                                      std::to_string(begin + len) + ") alone: " + d);
      }
    }
    return ClaimOutcome::Holds();
  };
  return c;
}

}  // namespace

Claim RowSlice(std::vector<std::string> row_tensors) { return SliceClaim(std::move(row_tensors), false); }
Claim FlatSlice(std::vector<std::string> tensors) { return SliceClaim(std::move(tensors), true); }

std::string F32DefinitionDiff(const OpSpec& op, const Case& in, const Case& after) {
  const auto want = op.oracle_f32(in);
  for (const TensorData& t : after.tensors) {
    if (t.role == Role::kInput) continue;
    const auto it = want.find(t.name);
    if (it == want.end()) return "the f32 definition has no value for " + t.name;
    // The stores a kernel makes: encode each f32 value into the operand's
    // dtype (and payload format: fp8 codes).
    TensorData expect = TensorFromValues(t.name, t.dtype, t.shape, t.role, it->second);
    if (t.fmt != expect.fmt) {
      expect.fmt = t.fmt;
      expect.SetValues(it->second);
    }
    const std::string d = DiffBytes(t, expect, /*any_nan=*/true);
    if (!d.empty()) return "kernel vs f32 definition: " + d;
  }
  return "";
}

Claim F32Definition() {
  Claim c;
  c.name = "f32_definition";
  c.statement = "bytes == the definition evaluated in f32 in the spec's order (oracle<float>)";
  c.check = [](const OpSpec& op, const Case& in, const vt::ExecContext& ctx) {
    const Execution run = Execute(op, in, ctx);
    if (!run.guard_error.empty()) return ClaimOutcome::Violated(run.guard_error);
    const std::string d = F32DefinitionDiff(op, in, run.after);
    return d.empty() ? ClaimOutcome::Holds() : ClaimOutcome::Violated(d);
  };
  return c;
}

}  // namespace vt::conform
