#include "harness/golden/rope_scaling.h"

#include <cmath>
#include <set>

namespace vt::conform::rope {
namespace {

using Json = nlohmann::ordered_json;

// One float32 torch op = one correctly rounded f32 operation. pow, cos and sin
// go through double and round once (torch's Sleef/glibc f32 versions are
// within 1 ulp of that).
float F(double x) { return static_cast<float>(x); }
float PowF(float b, float e) { return F(std::pow(static_cast<double>(b), static_cast<double>(e))); }
// Python's `1.0 / tensor` and `c / tensor` are torch's __rtruediv__:
// reciprocal(tensor) * c, two roundings when c != 1.
float RDivF(float c, float x) { return (1.0f / x) * c; }

// ---- typed reads of rope_parameters --------------------------------------

const Json* Key(const Json& p, const char* k) {
  const auto it = p.find(k);
  return it == p.end() || it->is_null() ? nullptr : &*it;
}

[[noreturn]] void Bad(const char* key, const std::string& why) {
  throw RopeScalingError(std::string("rope_parameters.") + key + ": " + why);
}

std::optional<double> OptNum(const Json& p, const char* k) {
  const Json* v = Key(p, k);
  if (v == nullptr) return std::nullopt;
  if (!v->is_number()) Bad(k, "must be a number");
  const double d = v->get<double>();
  if (!std::isfinite(d)) Bad(k, "must be finite");
  return d;
}
double Num(const Json& p, const char* k, std::optional<double> dflt = std::nullopt) {
  const auto v = OptNum(p, k);
  if (v) return *v;
  if (dflt) return *dflt;
  Bad(k, "required for this rope_type");
}
int64_t Int(const Json& p, const char* k, std::optional<int64_t> dflt = std::nullopt) {
  const Json* v = Key(p, k);
  if (v == nullptr) {
    if (dflt) return *dflt;
    Bad(k, "required for this rope_type");
  }
  // vLLM's configs carry these as ints, but a float with an integral value
  // (4096.0) is the same number to Python's arithmetic.
  if (!v->is_number()) Bad(k, "must be an integer");
  const double d = v->get<double>();
  if (!(std::fabs(d) < 9.0e15) || d != std::floor(d)) Bad(k, "must be an integer");
  return static_cast<int64_t>(d);
}
bool Bool(const Json& p, const char* k, bool dflt) {
  const Json* v = Key(p, k);
  if (v == nullptr) return dflt;
  if (!v->is_boolean()) Bad(k, "must be true or false");
  return v->get<bool>();
}
std::vector<double> NumList(const Json& p, const char* k) {
  const Json* v = Key(p, k);
  if (v == nullptr) Bad(k, "required for this rope_type");
  if (!v->is_array()) Bad(k, "must be a list of numbers");
  std::vector<double> out;
  for (const Json& e : *v) {
    if (!e.is_number() || !std::isfinite(e.get<double>())) Bad(k, "must be a list of finite numbers");
    out.push_back(e.get<double>());
  }
  return out;
}

double Positive(const Json& p, const char* k, std::optional<double> dflt = std::nullopt) {
  const double v = Num(p, k, dflt);
  if (!(v > 0)) Bad(k, "must be > 0");
  return v;
}

// The scaling names get_rope accepts that this module does not build.
const std::set<std::string> kVllmOther = {"mllama4", "proportional", "openpangu", "bailing_mrope", "dual_chunk"};

Kind KindOf(const Json& p, std::string* name) {
  const Json* t = Key(p, "rope_type");
  const char* key = "rope_type";
  if (t == nullptr) {
    t = Key(p, "type");  // the Hugging Face spelling before rope_type
    key = "type";
  }
  if (t == nullptr) {
    *name = "default";
    return Kind::kDefault;
  }
  if (!t->is_string()) Bad(key, "must be a string");
  *name = t->get<std::string>();
  const std::string& n = *name;
  if (n == "default" || n == "mrope") return Kind::kDefault;  // "mrope": the old spelling of default + sections
  if (n == "linear") return Kind::kLinear;
  if (n == "llama3") return Kind::kLlama3;
  if (n == "dynamic") {
    if (Key(p, "alpha") != nullptr) return Kind::kDynamicAlpha;  // alpha wins over factor, as in get_rope
    if (Key(p, "factor") != nullptr) return Kind::kDynamicFactor;
    Bad("factor", "dynamic rope scaling needs 'alpha' or 'factor'");
  }
  if (n == "ntk") return Kind::kNtk;
  if (n == "yarn") return Kind::kYarn;
  if (n == "deepseek_yarn" || n == "deepseek_llama_scaling") {
    if (Bool(p, "is_deepseek_v4", false)) {
      throw RopeScalingUnsupported("DeepSeek-V4 scaling (DeepseekV4ScalingRotaryEmbedding: rotates the last dims)");
    }
    return Kind::kDeepseekYarn;
  }
  if (n == "longrope" || n == "su") return Kind::kLongRope;
  if (kVllmOther.count(n) != 0) {
    throw RopeScalingUnsupported("rope_type '" + n + "' (a vLLM scaling the harness does not build yet)");
  }
  Bad(key, "unknown rope scaling type '" + n + "' (vLLM's get_rope raises on it)");
}

// ---- YaRN helpers (vLLM rotary_embedding/common.py) ------------------------

double YarnCorrectionDim(double num_rotations, int64_t dim, double base, double max_position) {
  const double two_pi = 2 * M_PI;
  return (static_cast<double>(dim) * std::log(max_position / (num_rotations * two_pi))) / (2 * std::log(base));
}

double YarnGetMscale(double scale, double mscale) {
  if (scale <= 1) return 1.0;
  return 0.1 * mscale * std::log(scale) + 1.0;
}

std::vector<float> BaseInvFreq(float base, int64_t rot) {
  std::vector<float> inv(static_cast<std::size_t>(rot / 2));
  for (int64_t i = 0; i < rot / 2; ++i) {
    const float e = F(static_cast<double>(2 * i)) / F(static_cast<double>(rot));
    inv[static_cast<std::size_t>(i)] = RDivF(1.0f, PowF(base, e));
  }
  return inv;
}

// Llama3RotaryEmbedding._compute_inv_freq: a piecewise blend by wavelength.
std::vector<float> Llama3InvFreq(const RopeScaling& s) {
  std::vector<float> inv = BaseInvFreq(F(s.theta), s.rotary_dim);
  const double orig = static_cast<double>(s.original_max_position);
  const float low_wavelen = F(orig / s.low_freq_factor), high_wavelen = F(orig / s.high_freq_factor);
  const float factor = F(s.factors[0]);
  const bool smooth_on = s.low_freq_factor != s.high_freq_factor;
  for (float& f : inv) {
    const float wave_len = RDivF(F(2 * M_PI), f);
    const float smooth = smooth_on ? (RDivF(F(orig), wave_len) - F(s.low_freq_factor)) /
                                         F(s.high_freq_factor - s.low_freq_factor)
                                   : 0.0f;
    if (wave_len < high_wavelen) continue;  // high frequencies kept
    if (wave_len > low_wavelen) {
      f = f / factor;  // low frequencies interpolated
    } else {
      f = (1.0f - smooth) * f / factor + smooth * f;
    }
  }
  return inv;
}

// YaRNScalingRotaryEmbedding._compute_inv_freq: interpolated and extrapolated
// frequencies blended by a linear ramp over the correction range.
std::vector<float> YarnInvFreq(const RopeScaling& s, double max_position) {
  const int64_t rot = s.rotary_dim;
  const float base = F(s.theta), factor = F(s.factors[0]);
  auto [low, high] = YarnCorrectionRange(s.beta_fast, s.beta_slow, rot, s.theta, max_position, s.truncate);
  if (low == high) high += 0.001;  // vLLM's guard against a zero-width ramp
  const float lowf = F(low), width = F(high - low);
  std::vector<float> inv(static_cast<std::size_t>(rot / 2));
  for (int64_t i = 0; i < rot / 2; ++i) {
    const float pos = PowF(base, F(static_cast<double>(2 * i)) / F(static_cast<double>(rot)));
    const float extrap = RDivF(1.0f, pos), interp = RDivF(1.0f, factor * pos);
    const float ramp = std::min(std::max((F(static_cast<double>(i)) - lowf) / width, 0.0f), 1.0f);
    const float mask = (1.0f - ramp) * F(s.extrapolation_factor);
    inv[static_cast<std::size_t>(i)] = interp * (1.0f - mask) + extrap * mask;
  }
  return inv;
}

// NTKScalingRotaryEmbedding._compute_inv_freq. Fixed: the base times factor,
// then every frequency divided by factor^(2 / rot) (a Python double). Mixed
// (mixed_b): lambda_i = exp(a * i^b), i = 1 .. rot/2, a = ln(factor) / (rot/2)^b,
// in f32 torch ops (torch.tensor(factor) is an f32 0-d tensor).
std::vector<float> NtkInvFreq(const RopeScaling& s) {
  const double f = s.factors[0];
  const int64_t rot = s.rotary_dim;
  std::vector<float> inv = BaseInvFreq(F(s.mixed_b ? s.theta : s.theta * f), rot);
  if (!s.mixed_b) {
    const float div = F(std::pow(f, 2.0 / static_cast<double>(rot)));
    for (float& v : inv) v = v / div;
    return inv;
  }
  const double b = *s.mixed_b;
  const float a = F(std::log(static_cast<double>(F(f)))) / F(std::pow(static_cast<double>(rot / 2), b));
  for (int64_t i = 0; i < rot / 2; ++i) {
    // tensor ** python_float keeps the exponent in double (unlike python_float
    // ** tensor, whose base becomes f32): measured, torch 2.14, b = 1.3.
    const float power = F(std::pow(static_cast<double>(i + 1), b));
    inv[static_cast<std::size_t>(i)] = inv[static_cast<std::size_t>(i)] / F(std::exp(static_cast<double>(a * power)));
  }
  return inv;
}

}  // namespace

const char* Name(Kind k) {
  switch (k) {
    case Kind::kDefault: return "default";
    case Kind::kLinear: return "linear";
    case Kind::kLlama3: return "llama3";
    case Kind::kDynamicFactor: return "dynamic(factor)";
    case Kind::kDynamicAlpha: return "dynamic(alpha)";
    case Kind::kNtk: return "ntk";
    case Kind::kYarn: return "yarn";
    case Kind::kDeepseekYarn: return "deepseek_yarn";
    case Kind::kLongRope: return "longrope";
  }
  return "?";
}

std::pair<double, double> YarnCorrectionRange(double beta_fast, double beta_slow, int64_t dim, double base,
                                              double max_position, bool truncate) {
  double low = YarnCorrectionDim(beta_fast, dim, base, max_position);
  double high = YarnCorrectionDim(beta_slow, dim, base, max_position);
  if (truncate) {
    low = std::floor(low);
    high = std::ceil(high);
  }
  // Clamped to the full rotary dim (not dim / 2), as vLLM does.
  return {std::max(low, 0.0), std::min(high, static_cast<double>(dim - 1))};
}

double YarnMscale(const RopeScaling& s) {
  const double f = s.factors[0];
  if (s.kind == Kind::kDeepseekYarn) {
    // DeepseekScalingRotaryEmbedding: always the ratio, mscale 1 / mscale_all_dim 0 by default.
    return YarnGetMscale(f, s.mscale.value_or(1.0)) / YarnGetMscale(f, s.mscale_all_dim.value_or(0.0));
  }
  if (s.attention_factor) return *s.attention_factor;
  // `mscale and mscale_all_dim`: both present and nonzero.
  if (s.mscale && s.mscale_all_dim && *s.mscale != 0 && *s.mscale_all_dim != 0) {
    return YarnGetMscale(f, *s.mscale) / YarnGetMscale(f, *s.mscale_all_dim);
  }
  return s.apply_yarn_scaling ? YarnGetMscale(f, 1.0) * s.attn_factor : s.attn_factor;
}

RopeScaling ParseRopeScaling(const Json& p, int64_t head_size, int64_t max_position, bool is_neox,
                             std::optional<int64_t> max_model_len) {
  if (!p.is_object()) throw RopeScalingError("rope_parameters must be an object");
  RopeScaling s;
  std::string name;
  s.kind = KindOf(p, &name);
  s.head_size = head_size;
  s.max_position = max_position;
  s.is_neox = is_neox;
  s.theta = Positive(p, "rope_theta", 10000.0);
  if (head_size <= 0) throw RopeScalingError("head_size must be > 0");
  if (max_position <= 0) throw RopeScalingError("max_position must be > 0");
  // get_rope: rope_dim when truthy, else head_size * partial_rotary_factor.
  const int64_t rope_dim = Int(p, "rope_dim", 0);
  if (rope_dim != 0) {
    s.rotary_dim = rope_dim;
  } else {
    const double partial = Num(p, "partial_rotary_factor", 1.0);
    if (!(partial > 0.0 && partial <= 1.0)) Bad("partial_rotary_factor", "must be in (0, 1]");
    s.rotary_dim = static_cast<int64_t>(static_cast<double>(head_size) * partial);
  }
  if (s.rotary_dim <= 0 || s.rotary_dim % 2 != 0 || s.rotary_dim > head_size) {
    Bad("rope_dim", "the rotary dim " + std::to_string(s.rotary_dim) + " must be even, > 0 and <= head_size " +
                        std::to_string(head_size));
  }
  const int64_t half = s.rotary_dim / 2;

  if (Key(p, "mrope_section") != nullptr) {
    const std::vector<double> sec = NumList(p, "mrope_section");
    int64_t sum = 0;
    for (const double v : sec) {
      if (v < 0 || v != std::floor(v) || v > 1e9) Bad("mrope_section", "entries must be integers >= 0");
      s.mrope_section.push_back(static_cast<int64_t>(v));
      sum += static_cast<int64_t>(v);
    }
    if (sec.size() != 3) Bad("mrope_section", "must have 3 entries (t, h, w)");
    if (sum != half) Bad("mrope_section", "must sum to rotary_dim / 2 = " + std::to_string(half));
    s.mrope_interleaved = Bool(p, "mrope_interleaved", false);
    s.mrope_positions_factor = Int(p, "mrope_positions_factor", 4);
    if (s.mrope_positions_factor <= 0) Bad("mrope_positions_factor", "must be > 0");
    if (s.kind != Kind::kDefault && s.kind != Kind::kYarn) {
      throw RopeScalingUnsupported(std::string("mrope sections with rope_type '") + name +
                                   "' (vLLM builds MRotaryEmbedding for default and yarn only)");
    }
  }

  switch (s.kind) {
    case Kind::kDefault: break;
    case Kind::kLinear: {
      const Json* f = Key(p, "factor");
      if (f != nullptr && f->is_array()) {
        s.factors = NumList(p, "factor");
        if (s.factors.empty()) Bad("factor", "must not be empty");
      } else {
        s.factors = {Num(p, "factor")};
      }
      for (const double v : s.factors) {
        if (!(v > 0)) Bad("factor", "must be > 0");
      }
      break;
    }
    case Kind::kLlama3:
      s.factors = {Positive(p, "factor")};
      s.low_freq_factor = Positive(p, "low_freq_factor");
      s.high_freq_factor = Positive(p, "high_freq_factor");
      s.original_max_position = Int(p, "original_max_position_embeddings");
      if (s.original_max_position <= 0) Bad("original_max_position_embeddings", "must be > 0");
      break;
    case Kind::kDynamicFactor:
      s.factors = {Positive(p, "factor")};
      s.max_trained_positions = Int(p, "max_trained_positions", max_position);
      if (s.max_trained_positions <= 0) Bad("max_trained_positions", "must be > 0");
      if (s.rotary_dim <= 2) Bad("rope_dim", "dynamic NTK needs rotary_dim > 2 (the exponent is rot / (rot - 2))");
      break;
    case Kind::kDynamicAlpha:
      s.alpha = Positive(p, "alpha");
      if (s.rotary_dim <= 2) Bad("rope_dim", "dynamic NTK needs rotary_dim > 2 (the exponent is rot / (rot - 2))");
      break;
    case Kind::kYarn:
      s.factors = {Positive(p, "factor")};
      s.original_max_position = Int(p, "original_max_position_embeddings");
      if (s.original_max_position <= 0) Bad("original_max_position_embeddings", "must be > 0");
      s.beta_fast = Positive(p, "beta_fast", 32.0);
      s.beta_slow = Positive(p, "beta_slow", 1.0);
      s.extrapolation_factor = Num(p, "extrapolation_factor", 1.0);
      s.attn_factor = Num(p, "attn_factor", 1.0);
      s.apply_yarn_scaling = Bool(p, "apply_yarn_scaling", true);
      s.truncate = Bool(p, "truncate", true);
      s.attention_factor = OptNum(p, "attention_factor");
      s.mscale = OptNum(p, "mscale");
      s.mscale_all_dim = OptNum(p, "mscale_all_dim");
      break;
    case Kind::kNtk:
      s.factors = {Positive(p, "factor")};
      s.mixed_b = OptNum(p, "mixed_b");
      break;
    case Kind::kDeepseekYarn:
      // The YaRN ramp with truncation on and no extrapolation factor.
      s.factors = {Positive(p, "factor")};
      s.original_max_position = Int(p, "original_max_position_embeddings");
      if (s.original_max_position <= 0) Bad("original_max_position_embeddings", "must be > 0");
      s.beta_fast = Positive(p, "beta_fast", 32.0);
      s.beta_slow = Positive(p, "beta_slow", 1.0);
      s.mscale = OptNum(p, "mscale");
      s.mscale_all_dim = OptNum(p, "mscale_all_dim");
      break;
    case Kind::kLongRope: {
      if (!is_neox) throw RopeScalingError("longrope: vLLM's Phi3LongRoPEScaledRotaryEmbedding is neox-style only");
      s.original_max_position = Int(p, "original_max_position_embeddings");
      if (s.original_max_position <= 0) Bad("original_max_position_embeddings", "must be > 0");
      s.short_factor = NumList(p, "short_factor");
      s.long_factor = NumList(p, "long_factor");
      for (const auto* fs : {&s.short_factor, &s.long_factor}) {
        if (static_cast<int64_t>(fs->size()) != half) {
          Bad(fs == &s.short_factor ? "short_factor" : "long_factor",
              "must have rotary_dim / 2 = " + std::to_string(half) + " entries");
        }
      }
      s.short_mscale = OptNum(p, "short_mscale");
      s.long_mscale = OptNum(p, "long_mscale");
      s.max_model_len = max_model_len.value_or(max_position);
      break;
    }
  }
  return s;
}

int64_t CachePlan::Rows() const {
  int64_t n = 0;
  for (const CacheSegment& seg : segments) n += seg.rows;
  return n;
}

CachePlan PlanCache(const RopeScaling& s) {
  CachePlan plan;
  plan.rotary_dim = s.rotary_dim;
  const int64_t rot = s.rotary_dim;
  const auto rows_for = [](double n) { return static_cast<int64_t>(std::ceil(n)); };  // torch.arange(float)
  switch (s.kind) {
    case Kind::kDefault: {
      // MRotaryEmbedding enlarges the cache by positions_factor (video positions).
      const int64_t rows = s.Mrope() ? s.max_position * s.mrope_positions_factor : s.max_position;
      plan.segments.push_back({rows, BaseInvFreq(F(s.theta), rot), 1.0f, 1.0f});
      break;
    }
    case Kind::kLinear:
      for (const double f : s.factors) {
        plan.segments.push_back(
            {rows_for(static_cast<double>(s.max_position) * f), BaseInvFreq(F(s.theta), rot), 1.0f, F(f)});
      }
      break;
    case Kind::kLlama3:
      plan.segments.push_back({s.max_position, Llama3InvFreq(s), 1.0f, 1.0f});
      break;
    case Kind::kDynamicFactor: {
      const double f = s.factors[0], r = static_cast<double>(rot);
      const double ratio = f * static_cast<double>(s.max_position) / static_cast<double>(s.max_trained_positions);
      const double base = s.theta * std::pow(ratio - (f - 1), r / (r - 2));
      if (!std::isfinite(base) || !(base > 0)) Bad("factor", "gives a non-finite or non-positive NTK base");
      plan.segments.push_back({s.max_position, BaseInvFreq(F(base), rot), 1.0f, 1.0f});
      break;
    }
    case Kind::kDynamicAlpha: {
      const double r = static_cast<double>(rot);
      const double base = s.theta * std::pow(s.alpha, r / (r - 2));
      plan.segments.push_back({s.max_position, BaseInvFreq(F(base), rot), 1.0f, 1.0f});
      break;
    }
    case Kind::kNtk:
      plan.segments.push_back({s.max_position, NtkInvFreq(s), 1.0f, 1.0f});
      break;
    case Kind::kYarn:
    case Kind::kDeepseekYarn: {
      // get_rope hands YaRN the ORIGINAL max position; MRotaryEmbedding first
      // multiplies it by positions_factor, and that enlarged length is also
      // what the correction range sees.
      const double orig = static_cast<double>(s.original_max_position) *
                          static_cast<double>(s.Mrope() ? s.mrope_positions_factor : 1);
      plan.segments.push_back(
          {rows_for(orig * s.factors[0]), YarnInvFreq(s, orig), F(YarnMscale(s)), 1.0f});
      break;
    }
    case Kind::kLongRope: {
      const double scale = static_cast<double>(s.max_position) / static_cast<double>(s.original_max_position);
      const double dflt =
          scale <= 1.0 ? 1.0 : std::sqrt(1 + std::log(scale) / std::log(static_cast<double>(s.original_max_position)));
      const auto inv = [&](const std::vector<double>& factors) {
        std::vector<float> out(static_cast<std::size_t>(rot / 2));
        for (int64_t i = 0; i < rot / 2; ++i) {
          const float pos = PowF(F(s.theta), F(static_cast<double>(2 * i)) / F(static_cast<double>(rot)));
          out[static_cast<std::size_t>(i)] = RDivF(1.0f, F(factors[static_cast<std::size_t>(i)]) * pos);
        }
        return out;
      };
      // Short cache (original length) first, then the long one (max_position).
      plan.segments.push_back({s.original_max_position, inv(s.short_factor), F(s.short_mscale.value_or(dflt)), 1.0f});
      plan.segments.push_back({s.max_position, inv(s.long_factor), F(s.long_mscale.value_or(dflt)), 1.0f});
      break;
    }
  }
  return plan;
}

void FillRow(const CachePlan& plan, int64_t row, float* out) {
  const int64_t half = plan.rotary_dim / 2;
  for (const CacheSegment& seg : plan.segments) {
    if (row >= seg.rows) {
      row -= seg.rows;
      continue;
    }
    const float t = F(static_cast<double>(row)) / seg.t_divisor;
    for (int64_t i = 0; i < half; ++i) {
      const float angle = t * seg.inv_freq[static_cast<std::size_t>(i)];
      out[i] = F(std::cos(static_cast<double>(angle))) * seg.mscale;
      out[half + i] = F(std::sin(static_cast<double>(angle))) * seg.mscale;
    }
    return;
  }
  throw std::out_of_range("rope cache row " + std::to_string(row) + " past the cache");
}

std::vector<float> BuildCache(const CachePlan& plan) {
  const int64_t rows = plan.Rows();
  std::vector<float> out(static_cast<std::size_t>(rows * plan.rotary_dim));
  for (int64_t r = 0; r < rows; ++r) FillRow(plan, r, out.data() + r * plan.rotary_dim);
  return out;
}

int64_t CacheRow(const RopeScaling& s, int64_t position) {
  return s.UseLongRope() ? position + s.original_max_position : position;
}

}  // namespace vt::conform::rope
