// harness/catalog/claims + mutators: the claim builders detect what they claim
// to detect (a row-dependent "op" breaks RowSlice, a perturbed derive breaks
// SameAs), DiffBytes names the first differing element, and every mutator
// changes a case in the documented way.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "harness/catalog/catalog.h"
#include "harness/catalog/claims.h"
#include "harness/catalog/mutators.h"
#include "harness/catalog/same_as.h"
#include "harness/modes/mode.h"

namespace vt::conform {
namespace {

vt::ExecContext Ctx() {
  vt::ExecContext ctx;
  ctx.threads = 2;
  return ctx;
}

// Catalog cases of an op with at least `rows` rows ("T"), f32/bf16 outputs.
std::vector<Case> RowCases(const OpSpec& op, int64_t rows, int want) {
  RunConfig cfg;
  std::vector<Case> out;
  for (const Params& p : TierCases(op, cfg, 64)) {
    if (!p.Has("T") || p.Int("T") < rows) continue;
    out.push_back(MakeCase(op, p));
    if (static_cast<int>(out.size()) == want) break;
  }
  return out;
}

const Claim* FindClaim(const OpSpec& op, const std::string& name) {
  for (const Claim& c : op.claims) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

TEST(Claims, RowSliceHoldsForRmsNorm) {
  const OpSpec* op = FindOp("rms_norm");
  ASSERT_NE(op, nullptr);
  const Claim* claim = FindClaim(*op, "row_slice");
  ASSERT_NE(claim, nullptr);
  const auto cases = RowCases(*op, 3, 4);
  ASSERT_FALSE(cases.empty());
  for (const Case& c : cases) {
    ASSERT_TRUE(!claim->applies || claim->applies(c.params));
    const ClaimOutcome r = claim->check(*op, c, Ctx());
    EXPECT_EQ(r.status, ClaimOutcome::Status::kHolds) << c.Identity() << ": " << r.detail;
  }
}

// An "op" whose output rows depend on the row count: out[r][j] = r + rows / 2.
OpSpec RowDependentOp() {
  OpSpec broken = *FindOp("rms_norm");
  broken.run = [](const vt::ExecContext&, const Workspace& ws) {
    const vt::Tensor& out = ws["out"];
    const std::size_t es = vt::SizeOf(out.dtype);
    for (int64_t r = 0; r < out.shape[0]; ++r) {
      for (int64_t j = 0; j < out.shape[1]; ++j) {
        auto* p = static_cast<uint8_t*>(out.data) + (r * out.stride[0] + j * out.stride[1]) * static_cast<int64_t>(es);
        EncodeElement(out.dtype, oracle::FmtOf(out.dtype), static_cast<double>(r) + 0.5 * out.shape[0], p);
      }
    }
  };
  return broken;
}

TEST(Claims, RowSliceCatchesARowDependentOp) {
  const OpSpec broken = RowDependentOp();
  const Claim claim = RowSlice({"x", "residual", "out"});
  const auto cases = RowCases(broken, 2, 4);
  ASSERT_FALSE(cases.empty());
  for (const Case& c : cases) {
    const ClaimOutcome r = claim.check(broken, c, Ctx());
    EXPECT_EQ(r.status, ClaimOutcome::Status::kViolated) << c.Identity();
    EXPECT_NE(r.detail.find("rows ["), std::string::npos) << r.detail;
    EXPECT_NE(r.detail.find("differ first at flat element 0"), std::string::npos) << r.detail;
  }
  // Fewer than two rows: not applicable rather than a vacuous "holds".
  Params one = cases.front().params;
  one.Set("T", 1);
  EXPECT_FALSE(claim.applies(one));
  const ClaimOutcome na = claim.check(broken, MakeCase(broken, one), Ctx());
  EXPECT_EQ(na.status, ClaimOutcome::Status::kNotApplicable);
}

TEST(Claims, SameAsCatchesAPerturbedInput) {
  const OpSpec* op = FindOp("rms_norm");
  const auto cases = RowCases(*op, 1, 3);
  ASSERT_FALSE(cases.empty());
  const Claim same = SameAs("self", "rms_norm == rms_norm", {}, "rms_norm", [](const Case& c) { return c; },
                            {{"out", "out"}});
  const Claim perturbed = SameAs("perturbed", "rms_norm == rms_norm with x[0] + 1", {}, "rms_norm",
                                 [](const Case& c) {
                                   Case d = c;
                                   auto v = d.Get("x").Values();
                                   v[0] += 1.0;
                                   d.Get("x").SetValues(v);
                                   return d;
                                 },
                                 {{"out", "out"}});
  for (const Case& c : cases) {
    if (c.Get("x").Numel() == 0) continue;
    const ClaimOutcome ok = same.check(*op, c, Ctx());
    EXPECT_EQ(ok.status, ClaimOutcome::Status::kHolds) << c.Identity() << ": " << ok.detail;
    const ClaimOutcome bad = perturbed.check(*op, c, Ctx());
    EXPECT_EQ(bad.status, ClaimOutcome::Status::kViolated) << c.Identity();
    EXPECT_NE(bad.detail.find("out vs out differ first at flat element 0"), std::string::npos) << bad.detail;
  }
  const Claim unknown = SameAs("u", "", {}, "no_such_op", [](const Case& c) { return c; }, {{"out", "out"}});
  EXPECT_THROW(unknown.check(*op, cases.front(), Ctx()), std::logic_error);
}

TEST(Claims, DiffBytesNamesTheFirstDifferingElement) {
  const TensorData a = TensorFromValues("a", vt::DType::kF32, {2, 3}, Role::kOutput, {1, 2, 3, 4, 5, 6});
  TensorData b = TensorFromValues("b", vt::DType::kF32, {2, 3}, Role::kOutput, {1, 2, 3, 4.5, 5, 7});
  EXPECT_EQ(DiffBytes(a, a), "");
  const std::string d = DiffBytes(a, b);
  EXPECT_NE(d.find("a vs b differ first at flat element 3: 4 vs 4.5"), std::string::npos) << d;
  // bf16: a difference in the high byte of element 2.
  const TensorData c = TensorFromValues("c", vt::DType::kBF16, {4}, Role::kOutput, {1, 2, 3, 4});
  const TensorData e = TensorFromValues("e", vt::DType::kBF16, {4}, Role::kOutput, {1, 2, -3, 4});
  EXPECT_NE(DiffBytes(c, e).find("flat element 2: 3 vs -3"), std::string::npos) << DiffBytes(c, e);
  // Logical bytes: a padded view equals its contiguous copy.
  TensorData padded = a;
  padded.SetRowPadding(2);
  padded.storage.assign(static_cast<std::size_t>(padded.StorageElems()) * 4, 0xFF);
  padded.SetValues({1, 2, 3, 4, 5, 6});
  EXPECT_EQ(DiffBytes(a, padded), "");
  EXPECT_EQ(CopyTensor(padded, "copy", Role::kInput).storage, a.storage);
  EXPECT_NE(DiffBytes(a, c).find("a is f32, c is bf16"), std::string::npos) << DiffBytes(a, c);
  const TensorData shorter = TensorFromValues("s", vt::DType::kF32, {5}, Role::kOutput, {1, 2, 3, 4, 5});
  EXPECT_NE(DiffBytes(a, shorter).find("differ in element count"), std::string::npos);
}

// ---- mutators ---------------------------------------------------------------

Case Base() {
  Case c;
  c.params = Params("m");
  c.params.Set("T", 4).Set("eps", 1e-6);
  c.params.seed = 3;
  c.Input("x", vt::DType::kF32, {4, 8}, Fill::Normal(0, 1));
  c.Input("w", vt::DType::kF32, {8}, Fill::Normal(0, 1));
  c.Input("one", vt::DType::kF32, {1, 8}, Fill::Normal(0, 1));
  c.Input("empty", vt::DType::kF32, {0, 8}, Fill::Normal(0, 1));
  c.Output("out", vt::DType::kBF16, {4, 8});
  return c;
}

std::string Spec(const TensorData& t) {
  std::string s = t.name + ":" + std::string(vt::Name(t.dtype)) + ":" + std::string(oracle::Name(t.fmt)) + ":";
  for (int64_t d : t.shape) s += std::to_string(d) + ",";
  s += "/";
  for (int64_t d : t.strides) s += std::to_string(d) + ",";
  // Value overrides are part of the fill (an index moved out of range).
  for (const auto& [k, v] : t.overrides) s += std::to_string(k) + "=" + std::to_string(v) + ";";
  return s + ":" + std::to_string(t.null_data) + ":" + std::to_string(static_cast<int>(t.device)) + ":" + t.alias_of +
         "+" + std::to_string(t.alias_offset) + "@" + std::to_string(t.pack_lead_bytes) + "~" +
         std::to_string(t.misalign_bytes);
}

// Applies `e` to Base(); checks it applied (or not) and that nothing but
// `target` changed. Returns the mutated case.
Case Apply(const ErrorCase& e, const std::string& target, bool applies = true) {
  const Case base = Base();
  Case c = base;
  EXPECT_EQ(e.mutate(c), applies) << e.name;
  for (const TensorData& t : base.tensors) {
    if (t.name != target) {
      EXPECT_EQ(Spec(c.Get(t.name)), Spec(t)) << e.name << " touched " << t.name;
    }
  }
  if (!target.empty() && applies) Materialize(c);  // the harness re-materialises mutated cases
  return c;
}

TEST(Mutators, DTypeChangesTheDTypeAndFormat) {
  const Case c = Apply(mut::DType("x", vt::DType::kI32), "x");
  EXPECT_EQ(mut::DType("x", vt::DType::kI32).name, "x_dtype_i32");
  EXPECT_EQ(c.Get("x").dtype, vt::DType::kI32);
  EXPECT_EQ(c.Get("x").fmt, oracle::Fmt::kF32);
  EXPECT_TRUE(c.Get("x").IsContiguous());
  EXPECT_EQ(c.Get("x").storage.size(), 32u * 4u);
  EXPECT_EQ(Apply(mut::DType("out", vt::DType::kF16), "out").Get("out").fmt, oracle::Fmt::kF16);
  Apply(mut::DType("x", vt::DType::kF32), "", false);  // already f32
  Apply(mut::DType("nope", vt::DType::kF32), "", false);
}

TEST(Mutators, DimChangesOneExtentAndKeepsTheLayout) {
  const Case c = Apply(mut::Dim("x", 1, -1), "x");
  EXPECT_EQ(mut::Dim("x", 1, -1).name, "x_dim1_minus1");
  EXPECT_EQ(c.Get("x").shape, (std::vector<int64_t>{4, 7}));
  EXPECT_TRUE(c.Get("x").IsContiguous());
  EXPECT_EQ(Apply(mut::Dim("x", 0, 2), "x").Get("x").shape, (std::vector<int64_t>{6, 8}));
  Apply(mut::Dim("x", 2, 1), "", false);   // no such dim
  Apply(mut::Dim("x", 0, -5), "", false);  // negative extent
  // A padded view stays padded.
  Case p = Base();
  p.Get("x").SetRowPadding(3);
  ASSERT_TRUE(mut::Dim("x", 1, 1).mutate(p));
  EXPECT_EQ(p.Get("x").shape, (std::vector<int64_t>{4, 9}));
  EXPECT_FALSE(p.Get("x").IsContiguous());
  EXPECT_EQ(p.Get("x").strides.back(), 1);
}

TEST(Mutators, RankChanges) {
  const Case add = Apply(mut::AddDim("x"), "x");
  EXPECT_EQ(add.Get("x").shape, (std::vector<int64_t>{1, 4, 8}));
  EXPECT_TRUE(add.Get("x").IsContiguous());
  const Case drop = Apply(mut::DropDim("x"), "x");
  EXPECT_EQ(drop.Get("x").shape, (std::vector<int64_t>{32}));
  Apply(mut::DropDim("w"), "", false);
  // EmptyInner zeroes the extent in every operand that shares it, so that
  // only the reduction's "> 0" condition is broken (no shape relation too).
  Case empty = Base();
  ASSERT_TRUE(mut::EmptyInner("x").mutate(empty));
  EXPECT_EQ(empty.Get("x").shape, (std::vector<int64_t>{4, 0}));
  EXPECT_EQ(empty.Get("w").shape, (std::vector<int64_t>{0}));
  EXPECT_EQ(empty.Get("one").shape, (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(empty.Get("out").shape, (std::vector<int64_t>{4, 0}));
  EXPECT_EQ(empty.Get("x").Numel(), 0);
  Case twice = empty;
  EXPECT_FALSE(mut::EmptyInner("x").mutate(twice));
}

TEST(Mutators, StridedViews) {
  const Case s = Apply(mut::Strided("x"), "x");
  const TensorData& x = s.Get("x");
  EXPECT_FALSE(x.IsContiguous());
  EXPECT_EQ(x.strides, (std::vector<int64_t>{11, 1}));
  EXPECT_TRUE(x.View(nullptr).IsRowStrided());
  // 1-D and single-row views get an inner stride of 2 instead.
  EXPECT_EQ(Apply(mut::Strided("w"), "w").Get("w").strides, (std::vector<int64_t>{2}));
  EXPECT_EQ(Apply(mut::Strided("one"), "one").Get("one").strides.back(), 2);
  Apply(mut::Strided("empty"), "", false);
  const Case inner = Apply(mut::InnerStride("x"), "x");
  EXPECT_EQ(inner.Get("x").strides, (std::vector<int64_t>{16, 2}));
  EXPECT_FALSE(inner.Get("x").View(nullptr).IsRowStrided());
  const Case over = Apply(mut::OverlappingRows("x"), "x");
  EXPECT_EQ(over.Get("x").strides, (std::vector<int64_t>{7, 1}));
  EXPECT_LT(over.Get("x").StorageElems(), over.Get("x").Numel());  // rows share elements
  Apply(mut::OverlappingRows("w"), "", false);
  Apply(mut::OverlappingRows("one"), "", false);
}

TEST(Mutators, NullDeviceAliasAndArgs) {
  EXPECT_TRUE(Apply(mut::NullData("x"), "x").Get("x").null_data);
  Apply(mut::NullData("empty"), "", false);
  EXPECT_EQ(Apply(mut::OtherDevice("w"), "w").Get("w").device, vt::DeviceType::kCUDA);
  // out (bf16, 64 bytes) fits on x's storage (f32, 128 bytes) ...
  Case a = Apply(mut::Alias("out", "x"), "out");
  EXPECT_EQ(a.Get("out").alias_of, "x");
  EXPECT_EQ(a.Get("out").alias_offset, 0);
  Workspace ws(a);
  EXPECT_EQ(ws["out"].data, ws["x"].data);
  // ... and x does not fit on out's, so out is bound onto x instead.
  EXPECT_EQ(Apply(mut::Alias("x", "out"), "out").Get("out").alias_of, "x");
  Apply(mut::Alias("out", "empty"), "", false);
  // Args: set only when the case has the parameter.
  const Case e = Apply(mut::Arg("eps", 0.0), "");
  EXPECT_EQ(e.params.Num("eps"), 0.0);
  EXPECT_EQ(mut::Arg("eps", 0.0).name, "eps_0_0");
  const ErrorCase nan = mut::Arg("eps", NAN);
  EXPECT_EQ(nan.name, "eps_nan");
  EXPECT_TRUE(std::isnan(Apply(nan, "").params.Num("eps")));
  Apply(mut::Arg("gamma", 1), "", false);
}

// j +- 2^32 in one element of an index operand (widened to i64), j being the
// value the fill put there: the low 32 bits stay j's.
TEST(Mutators, IndexPast32BitsKeepsTheLow32Bits) {
  for (const bool below : {false, true}) {
    Case base;
    base.params = Params("m");
    base.params.seed = 11;
    base.Input("idx", vt::DType::kI32, {6}, Fill::Uniform(0, 5));
    base.Input("x", vt::DType::kF32, {6}, Fill::Normal(0, 1));
    base.Input("none", vt::DType::kI64, {0}, Fill::Uniform(0, 5));
    Materialize(base);
    Case c = base;
    const ErrorCase e = mut::IndexPast32Bits("idx", below, "outside");
    EXPECT_EQ(e.name, below ? "idx_minus_2pow32" : "idx_plus_2pow32");
    EXPECT_EQ(e.expect, "outside");
    ASSERT_TRUE(e.mutate(c));
    Materialize(c);
    EXPECT_EQ(c.Get("idx").dtype, vt::DType::kI64);
    const auto was = base.Get("idx").Values(), now = c.Get("idx").Values();
    int moved = 0;
    for (std::size_t k = 0; k < was.size(); ++k) {
      if (was[k] == now[k]) continue;
      ++moved;
      EXPECT_EQ(now[k] - was[k], below ? -0x1p32 : 0x1p32);
      EXPECT_EQ(static_cast<uint32_t>(static_cast<int64_t>(now[k])), static_cast<uint32_t>(was[k]));
    }
    EXPECT_EQ(moved, 1);
    Case other = base;
    EXPECT_FALSE(mut::IndexPast32Bits("x", below, "").mutate(other));     // not an index
    EXPECT_FALSE(mut::IndexPast32Bits("none", below, "").mutate(other));  // empty
    EXPECT_FALSE(mut::IndexPast32Bits("gone", below, "").mutate(other));
  }
}

uintptr_t Address(const Workspace& ws, const std::string& name) { return reinterpret_cast<uintptr_t>(ws[name].data); }

TEST(Mutators, MisalignedMovesOneNonEmptyWideOperandByOneByte) {
  EXPECT_EQ(mut::Misaligned("x").name, "x_misaligned");
  const Case m = Apply(mut::Misaligned("x"), "x");
  EXPECT_EQ(m.Get("x").misalign_bytes, 1);
  EXPECT_EQ(Address(Workspace(m), "x") % 4, 1u);
  Apply(mut::Misaligned("empty"), "", false);  // addresses nothing: any pointer is legal
  Case bytes;
  bytes.Input("q", vt::DType::kU8, {4}, Fill::Uniform(0, 256));
  EXPECT_FALSE(mut::Misaligned("q").mutate(bytes));  // a byte is aligned anywhere
}

// second starts inside first's tail at its own alignment, first leading the
// allocation - or at first's start when first is shorter than one element of
// second - so the two overlap and second overlaps nothing else.
TEST(Mutators, PackedOverlapKeepsBothAligned) {
  for (const auto& [first, second] : {std::pair{"x", "out"}, std::pair{"out", "x"}}) {
    const Case c = Apply(mut::PackedOverlap(first, second), second);
    EXPECT_EQ(c.params.Str("layout"), "packed");
    EXPECT_EQ(c.tensors[0].name, first);
    EXPECT_EQ(c.tensors[1].name, second);
    Workspace ws(c);
    const uintptr_t a = Address(ws, first), b = Address(ws, second);
    const uintptr_t a_end = a + c.Get(first).storage.size();
    EXPECT_EQ(b % vt::SizeOf(c.Get(second).dtype), 0u) << second;
    EXPECT_GT(b, a) << second;
    EXPECT_LT(b, a_end) << second;
    EXPECT_GE(b + vt::SizeOf(c.Get(second).dtype), a_end) << second << " overlaps more than one of its elements";
  }
  Case shorter;
  shorter.params = Params("m");
  shorter.Input("h", vt::DType::kBF16, {1}, Fill::Normal(0, 1));
  shorter.Output("f", vt::DType::kF32, {2});
  ASSERT_TRUE(mut::PackedOverlap("h", "f").mutate(shorter));
  Materialize(shorter);
  Workspace ws(shorter);
  EXPECT_EQ(Address(ws, "f"), Address(ws, "h"));
}

// Every error case of every op changes the catalog case it applies to.
TEST(Mutators, CatalogErrorCasesChangeTheCaseTheyApplyTo) {
  RunConfig cfg;
  for (const OpSpec& op : Catalog()) {
    const auto cases = TierCases(op, cfg, 6);
    for (const ErrorCase& e : op.errors) {
      for (const Params& p : cases) {
        Case base;
        base.params = p;
        op.build(base);
        Case c = base;
        if (!e.mutate(c)) continue;
        // A bound-view corruption changes the views, not the case.
        bool changed = static_cast<bool>(e.bind) || c.params.Identity() != base.params.Identity() ||
                       c.tensors.size() != base.tensors.size();
        for (std::size_t i = 0; !changed && i < c.tensors.size(); ++i) {
          changed = Spec(c.tensors[i]) != Spec(base.tensors[i]);
        }
        EXPECT_TRUE(changed) << op.name << " " << e.name << " on " << p.Identity();
      }
    }
  }
}

}  // namespace
}  // namespace vt::conform
