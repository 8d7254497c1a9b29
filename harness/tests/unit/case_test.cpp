// harness/core/params + case: canonical identities round trip (every op, every
// tier), malformed identities are refused, tensor contents are a pure function
// of (seed, name, index), strided views keep NaN gaps.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/catalog/catalog.h"
#include "harness/core/case.h"
#include "harness/core/params.h"
#include "harness/modes/mode.h"
#include "oracles/bits.h"

namespace vt::conform {
namespace {

// Same JSON value AND the same kinds (an int must not come back as a float).
bool SameKinds(const Json& a, const Json& b) {
  if (a.is_number_integer() || b.is_number_integer()) {  // signed or unsigned storage alike
    return a.is_number_integer() && b.is_number_integer() && a == b;
  }
  if (a.type() != b.type()) return false;
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!SameKinds(a[i], b[i])) return false;
    }
    return true;
  }
  if (a.is_number_float() && std::isnan(a.get<double>())) return std::isnan(b.get<double>());
  return a == b;
}

::testing::AssertionResult RoundTrips(const Params& p) {
  const std::string id = p.Identity();
  Params q;
  try {
    q = Params::FromIdentity(id);
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << id << " does not parse: " << e.what();
  }
  if (q.op != p.op || q.seed != p.seed) return ::testing::AssertionFailure() << id << ": op/seed differ";
  if (q.args.size() != p.args.size()) return ::testing::AssertionFailure() << id << ": argument count differs";
  auto pi = p.args.begin();
  for (auto qi = q.args.begin(); qi != q.args.end(); ++qi, ++pi) {
    if (qi.key() != pi.key() || !SameKinds(*qi, *pi)) {
      return ::testing::AssertionFailure() << id << ": argument " << pi.key() << "=" << pi->dump()
                                           << " came back as " << qi.key() << "=" << qi->dump();
    }
  }
  if (q.Identity() != id) return ::testing::AssertionFailure() << id << " re-prints as " << q.Identity();
  return ::testing::AssertionSuccess();
}

TEST(Params, EveryCatalogCaseOfEveryTierRoundTrips) {
  int checked = 0;
  for (const OpSpec& op : Catalog()) {
    for (Tier tier : {Tier::kSmoke, Tier::kCi, Tier::kFull}) {
      RunConfig cfg;
      cfg.tier = tier;
      const std::vector<Params> cases = TierCases(op, cfg, 50);
      ASSERT_FALSE(cases.empty()) << op.name << " " << Name(tier);
      for (const Params& p : cases) {
        ASSERT_EQ(p.op, op.name);
        ASSERT_TRUE(RoundTrips(p));
        ASSERT_EQ(Params::FromIdentity(p.Identity()), p);
        ++checked;
      }
    }
  }
  EXPECT_GE(checked, static_cast<int>(Catalog().size()) * 50);
}

TEST(Params, ValuesRoundTrip) {
  Params p("some_op");
  p.Set("eps", 1e-6)
      .Set("f", 31.999839782714844)
      .Set("neg", -7)
      .Set("negf", -0.5)
      .Set("whole", 2.0)
      .Set("big", 1e300)
      .Set("tiny", 5e-324)
      .Set("imin", INT64_MIN)
      .Set("dt", "bf16")
      .Set("mode", "none")
      .Set("nested", Json::parse("[[1,2],[3.5,-4],[],[[\"a\"]]]"))
      .Set("nan", NAN)
      .Set("inf", -INFINITY);
  p.seed = 0xffffffffffffffffull;
  const std::string id = p.Identity();
  for (const char* part : {"some_op(eps=1e-06,", "f=31.999839782714844,", "neg=-7,", "negf=-0.5,", "whole=2.0,",
                           "imin=-9223372036854775808,", "nested=[[1,2],[3.5,-4],[],[[a]]],",
                           "seed=0xffffffffffffffff)"}) {
    EXPECT_NE(id.find(part), std::string::npos) << part << " not in " << id;
  }
  EXPECT_TRUE(RoundTrips(p));
  const Params q = Params::FromIdentity(id);
  EXPECT_TRUE(q.args["whole"].is_number_float());
  EXPECT_TRUE(q.args["neg"].is_number_integer());
  EXPECT_EQ(q.Num("f"), 31.999839782714844);
  EXPECT_EQ(q.Num("tiny"), 5e-324);
  EXPECT_TRUE(std::isnan(q.Num("nan")));
  EXPECT_EQ(q.Str("dt"), "bf16");
  EXPECT_EQ(q.DType("dt"), vt::DType::kBF16);
  EXPECT_THROW(p.Set("seed", 1), std::invalid_argument);
  // No arguments at all.
  Params bare("op");
  bare.seed = 5;
  EXPECT_EQ(bare.Identity(), "op(seed=0x5)");
  EXPECT_TRUE(RoundTrips(bare));
}

TEST(Params, MalformedIdentitiesThrow) {
  for (const char* bad : {"rms_norm(x=f32,T=3)",              // no seed
                          "rms_norm(x=[1,2,seed=0x1)",        // unbalanced list
                          "rms_norm(x=[1,[2,3],seed=0x1)",    // unbalanced nested list
                          "rms_norm(x=[1,2)",                 // list closed by ')'
                          "rms_norm",                         // no parens
                          "rms_norm x=1 seed=0x1",            // no parens
                          "rms_norm(x=f32,seed=0x1",          // no closing paren
                          "rms_norm(x=f32,seed=0x1)trailer",  // junk after ')'
                          "rms_norm(x=,seed=0x1)",            // empty value
                          "rms_norm(x=f32 ,seed=0x1)",        // stray character
                          "rms_norm(seed=)",                  // empty seed
                          ""}) {
    EXPECT_THROW(Params::FromIdentity(bad), std::invalid_argument) << "'" << bad << "'";
  }
}

// A repro line with a mistyped seed must not silently run another case.
TEST(Params, SeedWithTrailingJunkIsRefused) {
  bool threw = false;
  Params p;
  try {
    p = Params::FromIdentity("rms_norm(T=3,seed=0x5eed01zz)");
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  EXPECT_TRUE(threw) << "a seed with trailing junk was accepted as 0x" << std::hex << p.seed;
}

// ---- tensor contents --------------------------------------------------------

std::vector<uint8_t> Bytes(const Case& c, const std::string& name) { return c.Get(name).storage; }

TEST(Materialize, DeterministicPerCatalogCase) {
  RunConfig cfg;
  for (const OpSpec& op : Catalog()) {
    for (const Params& p : TierCases(op, cfg, 3)) {
      const Case a = MakeCase(op, p), b = MakeCase(op, p);
      ASSERT_EQ(a.tensors.size(), b.tensors.size());
      for (std::size_t i = 0; i < a.tensors.size(); ++i) {
        EXPECT_EQ(a.tensors[i].storage, b.tensors[i].storage) << p.Identity() << " " << a.tensors[i].name;
      }
      // Materialising in another tensor order gives the same bytes per name.
      Case r = a;
      std::reverse(r.tensors.begin(), r.tensors.end());
      Materialize(r);
      for (const TensorData& t : a.tensors) EXPECT_EQ(Bytes(r, t.name), t.storage) << p.Identity() << " " << t.name;
    }
  }
}

TEST(Materialize, DependsOnSeedNameAndIndexOnly) {
  Case c;
  c.params = Params("t");
  c.params.seed = 0x5eed01;
  c.Input("a", vt::DType::kF32, {4, 8}, Fill::Normal(0, 1));
  c.Input("b", vt::DType::kF32, {4, 8}, Fill::Normal(0, 1));
  c.Input("long", vt::DType::kF32, {40}, Fill::Uniform(-1, 1));
  c.Input("short", vt::DType::kF32, {13}, Fill::Uniform(-1, 1));
  Materialize(c);
  EXPECT_NE(Bytes(c, "a"), Bytes(c, "b"));  // different names, different streams
  // Element k depends on k, not on the shape: a shorter tensor of the same name is a prefix.
  TensorData prefix = c.Get("long");
  prefix.shape = {13};
  prefix.SetContiguous();
  MaterializeTensor(prefix, c.params.seed);
  const auto lv = c.Get("long").Values();
  EXPECT_EQ(prefix.Values(), std::vector<double>(lv.begin(), lv.begin() + 13));
  // The same name under another shape (2-D) gives the same logical sequence.
  TensorData as2d = c.Get("a");
  as2d.shape = {32};
  as2d.SetContiguous();
  MaterializeTensor(as2d, c.params.seed);
  EXPECT_EQ(as2d.Values(), c.Get("a").Values());
  // Adding a tensor does not disturb the others.
  Case more = c;
  more.Input("extra", vt::DType::kF32, {3}, Fill::Normal(0, 1));
  Materialize(more);
  EXPECT_EQ(Bytes(more, "a"), Bytes(c, "a"));
  // Another seed changes contents.
  Case reseeded = c;
  reseeded.params.seed = 0x5eed02;
  Materialize(reseeded);
  EXPECT_NE(Bytes(reseeded, "a"), Bytes(c, "a"));
  // Fills do what they say.
  for (double v : c.Get("long").Values()) {
    EXPECT_GE(v, -1.0);
    EXPECT_LT(v, 1.0);
  }
  Case k;
  k.Input("k", vt::DType::kBF16, {5}, Fill::Const(0.75));
  k.Output("o", vt::DType::kF32, {5});
  Materialize(k);
  EXPECT_EQ(k.Get("k").Values(), std::vector<double>(5, 0.75));
  for (double v : k.Get("o").Values()) EXPECT_TRUE(std::isnan(v));  // outputs are poisoned
}

// Raw bit overrides land over the fill and the value overrides, byte for
// byte (an f32 signalling NaN stays signalling), in every fill kind, at
// logical positions of a strided view; indices past the count are dropped.
TEST(Materialize, BitOverridesAreWrittenAsTheyAre) {
  for (const Fill& fill : {Fill::Normal(0, 1), Fill::Bits(0.5)}) {
    Case c;
    c.params = Params("t");
    c.params.seed = 9;
    TensorData& a = c.Input("a", vt::DType::kF32, {3, 4}, fill);
    a.SetRowPadding(2);
    a.overrides = {{5, 1.5}, {6, 2.5}};
    a.bit_overrides = {{5, 0x7F800001u}, {11, 0xFFFFFFFFu}, {12, 0x7FC00000u}};
    TensorData& h = c.Input("h", vt::DType::kBF16, {4}, fill);
    h.bit_overrides = {{0, 0x7F81u}};
    Materialize(c);
    const TensorData& x = c.Get("a");
    auto at = [&](int64_t k) {
      uint32_t u;
      std::memcpy(&u, x.storage.data() + x.LogicalOffsets()[static_cast<std::size_t>(k)] * 4, 4);
      return u;
    };
    EXPECT_EQ(at(5), 0x7F800001u);  // over the value override
    EXPECT_EQ(at(11), 0xFFFFFFFFu);
    if (fill.kind == Fill::Kind::kNormal) {
      EXPECT_EQ(x.Values()[6], 2.5);
    }
    uint16_t b;
    std::memcpy(&b, c.Get("h").storage.data(), 2);
    EXPECT_EQ(b, 0x7F81u);
    Case again = c;
    Materialize(again);
    EXPECT_EQ(again.Get("a").storage, x.storage);
  }
}

// ---- strided views ----------------------------------------------------------

bool IsNaNElement(vt::DType dt, const uint8_t* p) {
  switch (dt) {
    case vt::DType::kF32: {
      float f;
      std::memcpy(&f, p, 4);
      return std::isnan(f);
    }
    case vt::DType::kBF16: {
      uint16_t b;
      std::memcpy(&b, p, 2);
      return std::isnan(oracle::DecodeBits(oracle::Fmt::kBF16, b));
    }
    case vt::DType::kF16: {
      uint16_t h;
      std::memcpy(&h, p, 2);
      return std::isnan(oracle::DecodeBits(oracle::Fmt::kF16, h));
    }
    case vt::DType::kU8: return std::isnan(oracle::DecodeBits(oracle::Fmt::kFp8E4M3, *p));
    default: return false;
  }
}

TEST(TensorData, RowPaddingLeavesNaNGapsAndRoundTripsThroughStrides) {
  for (vt::DType dt : {vt::DType::kF32, vt::DType::kBF16, vt::DType::kF16, vt::DType::kU8}) {
    for (const std::vector<int64_t>& shape : {std::vector<int64_t>{3, 4}, std::vector<int64_t>{2, 3, 4}}) {
      Case c;
      c.params.seed = 7;
      TensorData& t = c.Input("x", dt, shape, Fill::Normal(0, 1));
      if (dt == vt::DType::kU8) t.fmt = oracle::Fmt::kFp8E4M3;
      const int64_t pad = 3;
      t.SetRowPadding(pad);
      const int64_t inner = shape.size() == 2 ? 4 : 12;
      EXPECT_EQ(t.strides.front(), inner + pad);
      EXPECT_EQ(t.strides.back(), 1);
      EXPECT_EQ(t.StorageElems(), (shape[0] - 1) * (inner + pad) + inner);
      Materialize(c);
      const TensorData& m = c.Get("x");
      const std::size_t es = vt::SizeOf(dt);
      ASSERT_EQ(m.storage.size(), static_cast<std::size_t>(m.StorageElems()) * es);
      EXPECT_EQ(m.View(nullptr).StorageElems(), m.StorageElems());
      // Every element that is not a logical one is a gap, and reads as NaN.
      std::vector<bool> logical(static_cast<std::size_t>(m.StorageElems()), false);
      for (int64_t off : m.LogicalOffsets()) logical[static_cast<std::size_t>(off)] = true;
      int gaps = 0;
      for (std::size_t k = 0; k < logical.size(); ++k) {
        if (logical[k]) continue;
        ++gaps;
        EXPECT_TRUE(IsNaNElement(dt, &m.storage[k * es])) << vt::Name(dt) << " gap element " << k;
      }
      EXPECT_EQ(gaps, (shape[0] - 1) * pad);
      // The logical contents equal those of the contiguous tensor of the same name.
      TensorData contig = m;
      contig.SetContiguous();
      MaterializeTensor(contig, c.params.seed);
      EXPECT_EQ(m.Values(), contig.Values()) << vt::Name(dt);
      EXPECT_EQ(m.LogicalBytes(), contig.storage) << vt::Name(dt);
      // SetValues writes through the strides and leaves the gaps alone.
      TensorData w = m;
      std::vector<double> vals(static_cast<std::size_t>(w.Numel()));
      for (std::size_t k = 0; k < vals.size(); ++k) vals[k] = 0.25 * static_cast<double>(k % 7) - 0.5;
      w.SetValues(vals);
      EXPECT_EQ(w.Values(), vals);
      for (std::size_t k = 0; k < logical.size(); ++k) {
        if (!logical[k]) {
          EXPECT_TRUE(IsNaNElement(dt, &w.storage[k * es]));
        }
      }
      EXPECT_THROW(w.SetValues({1.0}), std::invalid_argument);
    }
  }
}

TEST(TensorData, ShapesStridesAndViews) {
  TensorData t;
  t.dtype = vt::DType::kF32;
  t.shape = {5};
  t.SetRowPadding(4);  // rank 1: nothing to pad
  EXPECT_TRUE(t.IsContiguous());
  EXPECT_EQ(t.StorageElems(), 5);
  t.shape = {2, 3, 4};
  t.SetContiguous();
  EXPECT_EQ(t.strides, (std::vector<int64_t>{12, 4, 1}));
  EXPECT_EQ(t.StorageElems(), 24);
  t.strides = {12, 4, 2};  // inner stride 2 (overlapping outer strides on purpose)
  EXPECT_EQ(t.StorageElems(), 12 + 8 + 6 + 1);
  EXPECT_EQ(t.LogicalOffsets()[5], 4 + 2);  // index (0, 1, 1)
  t.shape = {0, 4};
  t.SetContiguous();
  EXPECT_EQ(t.Numel(), 0);
  EXPECT_EQ(t.StorageElems(), 0);
  t.shape = {3, 4};
  t.SetRowPadding(5);
  uint8_t dummy[4];
  const vt::Tensor v = t.View(dummy);
  EXPECT_EQ(v.data, dummy);
  EXPECT_EQ(v.rank, 2);
  EXPECT_EQ(v.shape[0], 3);
  EXPECT_EQ(v.stride[0], 9);
  EXPECT_EQ(v.stride[1], 1);
  EXPECT_FALSE(v.IsContiguous());
  EXPECT_TRUE(v.IsRowStrided());
}

// Shapes come from golden headers too: a count past int64 (or a negative
// extent) is refused by name, never wrapped (signed overflow was UB here).
TEST(TensorData, ElementCountPastInt64IsRefusedByName) {
  TensorData t;
  t.name = "hidden";
  t.shape = {int64_t{1} << 31, int64_t{1} << 31};
  t.strides = {int64_t{1} << 31, 1};
  EXPECT_EQ(t.Numel(), int64_t{1} << 62);
  t.shape = {int64_t{1} << 62, 4};
  t.strides = {4, 1};
  try {
    (void)t.Numel();
    ADD_FAILURE() << "2^64 elements counted as " << t.Numel();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("hidden"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)t.StorageElems(), std::invalid_argument);
  t.shape = {-1, 4};
  EXPECT_THROW((void)t.Numel(), std::invalid_argument);
  t.shape = {int64_t{1} << 40, int64_t{1} << 20};  // fits the count, not the storage extent
  t.strides = {int64_t{1} << 40, 1};
  EXPECT_THROW((void)t.StorageElems(), std::invalid_argument);
}

}  // namespace
}  // namespace vt::conform
