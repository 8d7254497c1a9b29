#include "harness/catalog/quant/quant_entry.h"

#include <cmath>
#include <stdexcept>

#include "harness/catalog/catalog.h"
#include "harness/catalog/claims.h"
#include "harness/core/rng.h"
#include "harness/golden/adapter.h"
#include "harness/golden/golden_io.h"

namespace vt::conform::quant {
namespace {

int64_t RoundUp(int64_t v, int64_t to) { return (v + to - 1) / to * to; }

std::vector<int64_t> ScaleShape(vt::Fp4ScaleLayout layout, int64_t rows, int64_t k) {
  if (layout == vt::Fp4ScaleLayout::kCutlassSwizzled) return {RoundUp(rows, 128), RoundUp(k / 16, 4)};
  return {rows, k / 16};
}

}  // namespace

rc::Gen<int64_t> Groups(Tier t) {
  switch (t) {
    case Tier::kSmoke: return gen::Pick(std::vector<int64_t>{1, 2, 4});
    case Tier::kCi: return gen::Pick(std::vector<int64_t>{1, 2, 3, 4, 5, 8, 9, 16, 33, 64});
    case Tier::kFull: return gen::Pick(std::vector<int64_t>{1, 3, 4, 5, 8, 17, 64, 129, 256});
  }
  return rc::gen::just<int64_t>(1);
}

rc::Gen<std::string> ScaleLayoutKnob() { return gen::Pick(std::vector<std::string>{"linear", "swizzled"}); }

rc::Gen<std::string> GsiKnob() {
  return gen::Pick(std::vector<std::string>{"unit", "real", "real", "pow2", "sat", "zero"});
}

double GsiValue(const std::string& knob, double scale) {
  // vLLM: gsi = 448 * 6 / global amax; a normal fill's amax is ~4 scale.
  const double real = 448.0 * 6.0 / (4.0 * scale);
  if (knob == "unit") return 1.0;
  if (knob == "real") return static_cast<float>(real);
  if (knob == "pow2") return std::ldexp(1.0, static_cast<int>(std::lround(std::log2(real))));
  if (knob == "sat") return static_cast<float>(20.0 * real);  // s = gsi amax / 6 far above 448
  if (knob == "zero") return 0.0;
  throw std::invalid_argument("unknown gsi knob " + knob);
}

vt::Fp4ScaleLayout LayoutOf(const Params& p) {
  const std::string l = p.Str("scale_layout");
  if (l == "linear") return vt::Fp4ScaleLayout::kLinear;
  if (l == "swizzled") return vt::Fp4ScaleLayout::kCutlassSwizzled;
  return static_cast<vt::Fp4ScaleLayout>(2);  // an error case: no such layout
}

void AddOutputs(Case& c, int64_t rows, int64_t k) {
  c.Output("out_packed", vt::DType::kU8, {rows, k / 2});
  const vt::Fp4ScaleLayout l = LayoutOf(c.params);
  TensorData& s = c.Output("out_scale", vt::DType::kU8,
                           ScaleShape(l == vt::Fp4ScaleLayout::kCutlassSwizzled ? l : vt::Fp4ScaleLayout::kLinear, rows, k));
  s.fmt = oracle::Fmt::kFp8E4M3;
}

std::vector<OutputSpec> Outputs(const Case&) {
  OutputSpec packed{"out_packed",
                    Exact("e2m1 codes are defined exactly (nearest, ties to even, saturating, NaN -> +6): "
                          "each byte equals the definition's; where the f32 evaluation of s = gsi * amax "
                          "* (1/6) or of x * (1/block) lies within its rounding-error bound of an e4m3 "
                          "midpoint or an e2m1 threshold, the byte is held to the f32 definition instead "
                          "(docs/ops/quant.md)")};
  OutputSpec scale{"out_scale",
                   Bound("e4m3(gsi * amax * f32(1/6)): two f32 roundings and the f32 constant 1/6 "
                         "bounded, then the monotone e4m3 rounding (both candidate codes only where "
                         "the bound straddles an e4m3 midpoint); swizzled padding exactly 0")};
  packed.zeros_are_data = true;  // a zero code is a value the kernel must write, not a vacuous match
  scale.zeros_are_data = true;   // swizzled padding, gsi = 0 and all-zero groups are exact zeros
  return {packed, scale};
}

std::vector<ScalarRule> Scalars() { return {entry::Finite("gsi")}; }

std::vector<ErrorCase> OutputErrors() {
  ErrorCase other_layout_shape(
      "out_scale_other_layouts_shape",
      [](Case& c) {
        TensorData* s = c.Find("out_scale");
        const TensorData* pk = c.Find("out_packed");
        if (s == nullptr || pk == nullptr) return false;
        const vt::Fp4ScaleLayout l = LayoutOf(c.params);
        const vt::Fp4ScaleLayout other = l == vt::Fp4ScaleLayout::kLinear ? vt::Fp4ScaleLayout::kCutlassSwizzled
                                                                          : vt::Fp4ScaleLayout::kLinear;
        const std::vector<int64_t> shape = ScaleShape(other, pk->shape[0], 2 * pk->shape[1]);
        if (shape == s->shape) return false;  // the two layouts agree in shape here
        s->shape = shape;
        s->SetContiguous();
        return true;
      },
      "out_scale");
  return {mut::Arg("scale_layout", "bogus"), mut::Arg("gsi", -0.5), mut::Dim("out_packed", 1, 1),
          mut::Dim("out_packed", 0, 1),      mut::Dim("out_scale", 1, 1), mut::Dim("out_scale", 0, 1),
          mut::Dim("out_scale", 0, 128),     mut::Dim("out_scale", 1, 4), other_layout_shape};
}

ErrorCase InnerNotMultipleOf16(const std::string& input, int64_t per_i, std::vector<std::string> also) {
  return ErrorCase(
      input + "_inner_not_multiple_of_16",
      [=](Case& c) {
        TensorData* x = c.Find(input);
        TensorData* pk = c.Find("out_packed");
        if (x == nullptr || pk == nullptr || x->shape.size() != 2) return false;
        x->shape[1] += 8 * per_i;  // 8 more quantized columns: K % 16 == 8
        x->SetContiguous();
        for (const std::string& n : also) {
          TensorData* t = c.Find(n);
          if (t == nullptr) return false;
          t->shape[1] += 8 * per_i;
          t->SetContiguous();
        }
        pk->shape[1] += 4;  // out_packed stays [M, K/2]; floor(K/16) keeps out_scale's shape
        pk->SetContiguous();
        return true;
      },
      "multiple of 16");
}

void AimAtTies(TensorData& x, uint64_t seed, double gsi) {
  static const double kTies[] = {0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0};
  static const int kExps[] = {-4, 0, 3};  // block scales 2^-4, 1, 8: e4m3 normals
  const int64_t rows = x.shape[0], k = x.shape[1];
  const uint64_t stream = HashName("aim:" + x.name);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t g = 0; g < k / 16; ++g) {
      const uint64_t gid = static_cast<uint64_t>(r * (k / 16) + g);
      const uint64_t h = StreamValue(seed, stream, gid);
      const double u = std::ldexp(1.0, kExps[h % 3]) / gsi;
      const bool zero_group = (h >> 8) % 8 == 0;
      const int64_t at_max = static_cast<int64_t>((h >> 16) % 16);  // the element holding amax = 6u
      for (int64_t j = 0; j < 16; ++j) {
        const int64_t idx = r * k + g * 16 + j;
        const uint64_t e = StreamValue(seed, stream ^ 0x5a5a, static_cast<uint64_t>(idx));
        const double sign = (e & 1) ? -1.0 : 1.0;
        double v;
        if (zero_group) {
          v = 0.0;
        } else if (j == at_max || (e >> 1) % 8 == 0) {
          v = sign * 6.0 * u;  // the saturation edge: x / block == 6 exactly
        } else if ((e >> 1) % 8 < 5) {
          v = sign * kTies[(e >> 4) % 7] * u;  // an e2m1 tie, exactly
        } else {
          v = sign * 5.99 * u * Unit(e);  // inside the group's range
        }
        x.overrides.emplace_back(idx, v);
      }
    }
  }
}

namespace {

// The smallest e4m3 rounding midpoint >= s (normal range), or 0 if none below 448.
double E4m3MidpointAbove(double s) {
  if (!(s >= 0x1p-6) || !(s < 432.0)) return 0.0;
  const int e = std::ilogb(s);
  const double frac = std::ldexp(s, -e);  // [1, 2)
  const int step = static_cast<int>(std::floor((frac - 1.0) * 8.0));
  double m = std::ldexp(1.0 + (2.0 * step + 1.0) / 16.0, e);
  if (m < s) m = std::ldexp(1.0 + (2.0 * step + 3.0) / 16.0, e);  // the next step's midpoint
  return m < 448.0 ? m : 0.0;
}

// The spec's f32 scale for a group maximum a.
float ScaleF32(float gsi, float a) { return gsi * (a * (1.0f / 6.0f)); }

}  // namespace

void AimAtScaleMidpoints(TensorData& x, uint64_t seed, double gsi) {
  if (!(gsi > 0.0)) return;
  TensorData drawn = x;
  MaterializeTensor(drawn, seed);
  const std::vector<double> v = drawn.Values();
  const int64_t rows = x.shape[0], k = x.shape[1];
  const float g = static_cast<float>(gsi);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t grp = 0; grp < k / 16; ++grp) {
      int64_t at = -1;
      double amax = 0.0;
      for (int64_t j = 0; j < 16; ++j) {
        const int64_t idx = r * k + grp * 16 + j;
        if (std::fabs(v[static_cast<std::size_t>(idx)]) > amax) {
          amax = std::fabs(v[static_cast<std::size_t>(idx)]);
          at = idx;
        }
      }
      const double m = E4m3MidpointAbove(ScaleF32(g, static_cast<float>(amax)));
      if (at < 0 || m == 0.0) continue;
      // Candidates of x's dtype around 6 m / gsi; keep the one whose f32 s is nearest m.
      const double centre = oracle::RoundReal(x.fmt, 6.0 * m / gsi);
      double best = centre, best_err = INFINITY;
      for (int d = -4; d <= 4; ++d) {
        const double a = oracle::RoundReal(x.fmt, centre + d * oracle::UlpOf(x.fmt, centre));
        if (!(a >= amax)) continue;  // it must stay the group's maximum
        const double err = std::fabs(static_cast<double>(ScaleF32(g, static_cast<float>(a))) - m);
        if (err < best_err) {
          best_err = err;
          best = a;
        }
      }
      if (!std::isfinite(best_err)) continue;
      x.overrides.emplace_back(at, v[static_cast<std::size_t>(at)] < 0 ? -best : best);
    }
  }
}

Claim LinearRowSlice(std::vector<std::string> row_tensors) {
  Claim c = RowSlice(std::move(row_tensors));
  auto base = c.applies;
  c.applies = [base](const Params& p) {
    return p.Str("scale_layout") == "linear" && (!base || base(p));
  };
  return c;
}

Claim LayoutsAgree() {
  Claim c;
  c.name = "layouts_agree";
  c.statement = "linear and CUTLASS-swizzled scale layouts: the same packed bytes, and the swizzled scale "
                "tensor is the linear one in CUTLASS's 128x4 tile order with zero padding";
  c.check = [](const OpSpec& op, const Case& mine, const vt::ExecContext& ctx) {
    Case other = mine;
    const bool mine_linear = LayoutOf(mine.params) == vt::Fp4ScaleLayout::kLinear;
    other.params.Set("scale_layout", mine_linear ? "swizzled" : "linear");
    TensorData& s = other.Get("out_scale");
    const TensorData& pk = mine.Get("out_packed");
    const int64_t rows = pk.shape[0], k = 2 * pk.shape[1];
    s.shape = ScaleShape(LayoutOf(other.params), rows, k);
    s.SetContiguous();
    MaterializeTensor(s, other.params.seed);
    const Execution a = Execute(op, mine, ctx);
    const Execution b = Execute(op, other, ctx);
    if (!a.guard_error.empty()) return ClaimOutcome::Violated(a.guard_error);
    if (!b.guard_error.empty()) return ClaimOutcome::Violated(b.guard_error);
    std::string d = DiffBytes(a.after.Get("out_packed"), b.after.Get("out_packed"));
    if (!d.empty()) return ClaimOutcome::Violated("packed codes differ between layouts: " + d);
    const TensorData& lin = mine_linear ? a.after.Get("out_scale") : b.after.Get("out_scale");
    const TensorData& swz = mine_linear ? b.after.Get("out_scale") : a.after.Get("out_scale");
    const std::vector<uint8_t> mapped = oracle::SwizzleScales<uint8_t>(lin.LogicalBytes(), rows, k / 16, 0);
    const std::vector<uint8_t> got = swz.LogicalBytes();
    for (std::size_t i = 0; i < got.size() && i < mapped.size(); ++i) {
      if (got[i] != mapped[i]) {
        return ClaimOutcome::Violated("swizzled scale byte " + std::to_string(i) + " is " + std::to_string(got[i]) +
                                      ", the linear layout maps " + std::to_string(mapped[i]) + " there");
      }
    }
    if (got.size() != mapped.size()) return ClaimOutcome::Violated("swizzled scale size differs");
    return ClaimOutcome::Holds();
  };
  return c;
}

Claim ComposedOf(std::string name, std::string statement, std::string act_op,
                 std::function<Case(const Case&)> derive) {
  Claim c;
  c.name = std::move(name);
  c.statement = std::move(statement);
  c.check = [act_op, derive](const OpSpec& op, const Case& mine, const vt::ExecContext& ctx) {
    const OpSpec* act = FindOp(act_op);
    const OpSpec* quant = FindOp("scaled_fp4_quant");
    if (act == nullptr || quant == nullptr) throw std::logic_error("claim names an unknown op");
    const Execution fused = Execute(op, mine, ctx);
    const Execution first = Execute(*act, derive(mine), ctx);
    if (!fused.guard_error.empty()) return ClaimOutcome::Violated(fused.guard_error);
    if (!first.guard_error.empty()) return ClaimOutcome::Violated(act_op + ": " + first.guard_error);
    const TensorData& pk = mine.Get("out_packed");
    const int64_t rows = pk.shape[0], k = 2 * pk.shape[1];
    Case q;
    q.params = Params("scaled_fp4_quant");
    q.params.Set("x", "bf16");
    q.params.Set("T", rows);
    q.params.Set("G", k / 16);
    q.params.Set("gsi", mine.params.Num("gsi"));
    q.params.Set("scale_layout", mine.params.Str("scale_layout"));
    q.params.seed = mine.params.seed;
    TensorData x = CopyTensor(first.after.Get("out"), "x", Role::kInput);
    x.shape = {rows, k};
    x.SetContiguous();
    q.tensors = {x, CopyTensor(mine.Get("out_packed"), "out_packed", Role::kOutput),
                 CopyTensor(mine.Get("out_scale"), "out_scale", Role::kOutput)};
    const Execution second = Execute(*quant, q, ctx);
    if (!second.guard_error.empty()) return ClaimOutcome::Violated("scaled_fp4_quant: " + second.guard_error);
    for (const char* t : {"out_packed", "out_scale"}) {
      const std::string d = DiffBytes(fused.after.Get(t), second.after.Get(t));
      if (!d.empty()) return ClaimOutcome::Violated(std::string(t) + ": " + d);
    }
    return ClaimOutcome::Holds();
  };
  return c;
}

GoldenMapping GoldenFp4Quant(const GoldenCase& g, const std::string& op, const std::string& input, int64_t per_i,
                             std::vector<std::string> also) {
  GoldenMapping m;
  const TensorData x = GoldenTensor(g, input, input, Role::kInput);
  if (x.shape.size() != 2) throw GoldenUnsupported(input + " is not 2-D");
  if (!vt::IsFloat(x.dtype)) throw GoldenUnsupported(input + " is not a float tensor");
  if (x.shape[1] % per_i != 0) throw GoldenUnsupported(input + "'s inner dim does not split");
  const int64_t rows = x.shape[0], k = x.shape[1] / per_i;
  if (k % 16 != 0) throw GoldenUnsupported("the quantized dim " + std::to_string(k) + " is not a multiple of 16");
  if (g.ArgNum("block_size", 16.0) != 16.0) throw GoldenUnsupported("block_size other than 16");
  const std::string layout = g.ArgStr("scale_layout", "linear");
  if (layout != "linear" && layout != "swizzled") throw GoldenUnsupported("scale_layout '" + layout + "'");
  const double gsi = g.ArgNum("gsi", -1.0);
  if (!(gsi >= 0.0)) throw GoldenUnsupported("no gsi >= 0 in args");
  Params p(op);
  p.Set(input, DTypeKey(x));
  for (const std::string& a : also) p.Set(a, DTypeKey(g.Get(a)));
  p.Set("T", rows);
  p.Set("G", k / 16);
  p.Set("gsi", gsi);
  p.Set("scale", 1.0);
  p.Set("aim", "none");
  p.Set("scale_layout", layout);
  m.c.params = p;
  m.c.tensors = {x};
  for (const std::string& a : also) m.c.tensors.push_back(GoldenTensor(g, a, a, Role::kInput));
  TensorData packed = GoldenOutputLike(g, "out_packed", "out_packed");
  TensorData scale = GoldenOutputLike(g, "out_scale", "out_scale");
  if (scale.fmt != oracle::Fmt::kFp8E4M3) throw GoldenUnsupported("out_scale is not fp8_e4m3");
  const std::vector<int64_t> want_scale =
      layout == "swizzled" ? std::vector<int64_t>{RoundUp(rows, 128), RoundUp(k / 16, 4)} : std::vector<int64_t>{rows, k / 16};
  if (packed.shape != std::vector<int64_t>{rows, k / 2} || scale.shape != want_scale) {
    throw GoldenUnsupported("out_packed / out_scale shapes are not [M, K/2] / the layout's");
  }
  m.c.tensors.push_back(packed);
  m.c.tensors.push_back(scale);
  // ref_nvfp4_quant returns sign(x) * 0 = -0.0 for small negative x; the seed
  // writes +0. Same value: canonicalise the golden's nibble 0x8 to 0x0.
  TensorData canon = CopyTensor(g.Get("out_packed"), "out_packed", Role::kOutput);
  std::vector<double> bytes = canon.Values();
  int64_t neg_zero = 0;
  for (double& b : bytes) {
    auto v = static_cast<unsigned>(b);
    if ((v & 0x0Fu) == 0x08u) { v &= 0xF0u; ++neg_zero; }
    if ((v & 0xF0u) == 0x80u) { v &= 0x0Fu; ++neg_zero; }
    b = v;
  }
  canon.SetValues(bytes);
  m.golden_relaid.emplace("out_packed", canon);
  m.side_checks.push_back({"out_packed", std::to_string(neg_zero) + " of " + std::to_string(2 * canon.Numel()) +
                                             " codes are the reference's -0 (nibble 0x8), compared as +0 (0x0)",
                           ""});
  m.compare = {{"out_packed", "out_packed"}, {"out_scale", "out_scale"}};
  return m;
}

void CheckActivation(GoldenMapping& m, const GoldenCase& g, const std::string& act_op,
                     std::function<Case(const Case&)> derive) {
  if (!g.Has("act_bf16")) return;
  m.then = [act_op, derive](Case& after, const vt::ExecContext& ctx) {
    const OpSpec* op = FindOp(act_op);
    if (op == nullptr) throw std::logic_error("golden adapter names unknown op " + act_op);
    const Execution e = Execute(*op, derive(after), ctx);
    if (!e.guard_error.empty()) throw std::runtime_error(act_op + " wrote outside its operands: " + e.guard_error);
    after.tensors.push_back(CopyTensor(e.after.Get("out"), "act", Role::kOutput));
  };
  m.compare.emplace_back("act", "act_bf16");
}

}  // namespace vt::conform::quant
