#include "harness/catalog/values.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "harness/core/rng.h"

namespace vt::conform {
namespace {

// Salts the "values" streams so they never coincide with the tensor's fill
// stream (HashName(name)) for the same element.
constexpr uint64_t kSelectSalt = 0x5e1ec7ull;
constexpr uint64_t kPickSalt = 0x9c4e11ull;

// About one element in this many carries a special, and at most 1/16 of a
// tensor: specials are sparse, so most of the output stays finite and nonzero
// (the trust rule still sees a real signal).
constexpr uint64_t kSpecialEvery = 32;
constexpr uint64_t kSpecialCap = 16;
constexpr uint64_t kEdgeEvery = 4;  // bands are narrow: hit them often

uint64_t Draw(const Case& c, const std::string& tensor, uint64_t salt, uint64_t k) {
  return StreamValue(c.params.seed, HashName(tensor) ^ salt, k);
}

bool HasRawNaNs(vt::DType dt) { return dt == vt::DType::kF32 || dt == vt::DType::kF16 || dt == vt::DType::kBF16; }

void ApplySpecials(const SpecialCarrier& s, Case& c) {
  TensorData* t = c.Find(s.tensor);
  if (t == nullptr || t->Numel() == 0) return;
  const auto& vocab = SpecialVocabulary();
  const auto& raw = RawNaNs();
  // f32 / f16 / bf16 carriers draw the raw NaNs too; other formats (fp8
  // scale bytes) have no NaN payloads to vary.
  const uint64_t kinds = vocab.size() + (HasRawNaNs(t->dtype) ? raw.size() : 0);
  const uint64_t n = static_cast<uint64_t>(t->Numel());
  auto put = [&](uint64_t k) {
    const uint64_t pick = Draw(c, s.tensor, kPickSalt, k) % kinds;
    if (pick < vocab.size()) {
      t->overrides.emplace_back(static_cast<int64_t>(k), vocab[pick]);
    } else {
      t->bit_overrides.emplace_back(static_cast<int64_t>(k), RawNaNBits(raw[pick - vocab.size()], t->dtype));
    }
  };
  if (s.row) {
    // Rows of the leading extent (a rank-1 operand: one element per row); one
    // element in each row r = 3 (mod 4): at most a quarter of the rows (and
    // so of a norm's outputs) turns NaN / zero.
    const uint64_t rows = t->shape.empty() ? 1 : static_cast<uint64_t>(t->shape[0]);
    const uint64_t per_row = n / rows;
    for (uint64_t r = 3; r < rows; r += 4) put(r * per_row + Draw(c, s.tensor, kSelectSalt, r) % per_row);
  } else {
    const uint64_t cap = n / kSpecialCap;  // a tensor of < 16 elements stays normal
    uint64_t used = 0;
    for (uint64_t k = 0; k < n && used < cap; ++k) {
      if (Draw(c, s.tensor, kSelectSalt, k) % kSpecialEvery == 0) {
        put(k);
        ++used;
      }
    }
  }
  MaterializeTensor(*t, c.params.seed);
}

void ApplyEdges(const std::vector<ValueBand>& bands, Case& c) {
  for (TensorData& t : c.tensors) {
    std::vector<const ValueBand*> mine;
    for (const ValueBand& b : bands) {
      if (b.tensor == t.name) mine.push_back(&b);
    }
    // A tensor of a few elements (a per-token gate at T = 1) is left alone: one
    // band value there can decide the whole output (sigmoid(-90) zeroes the
    // row), and an all-zero reference vouches for nothing.
    if (mine.empty() || t.Numel() < 4) continue;
    for (int64_t k = 0; k < t.Numel(); ++k) {
      const uint64_t sel = Draw(c, t.name, kSelectSalt, static_cast<uint64_t>(k));
      if (sel % kEdgeEvery != 0) continue;
      const ValueBand& b = *mine[(sel / kEdgeEvery) % mine.size()];
      t.overrides.emplace_back(k, b.lo + (b.hi - b.lo) * Unit(Draw(c, t.name, kPickSalt, static_cast<uint64_t>(k))));
    }
    MaterializeTensor(t, c.params.seed);
  }
}

}  // namespace

const std::vector<double>& SpecialVocabulary() {
  static const std::vector<double> kVocab = [] {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> mags = {
        // Subnormals: smallest, a middle one, largest - of f32, f16 and bf16.
        0x1p-149, 0x1p-138, 0x1.fffffcp-127,  // f32
        0x1p-24, 0x1p-20, 0x1.ff8p-15,        // f16
        0x1p-133, 0x1p-130, 0x1.fcp-127,      // bf16
        // Largest finite values.
        0x1.fffffep127, 65504.0, 0x1.fep127,
        // Exact ties: halfway between neighbours of f16 (1 + 2^-11 to even
        // below, 1 + 3*2^-11 to even above; 65520 between 65504 and the
        // overflow) and of bf16 (1 + 2^-8, 1 + 3*2^-8). In an f32 operand they
        // stay ties for an f16/bf16 output or round-through.
        1.0 + 0x1p-11, 1.0 + 0x3p-11, 65520.0, 1.0 + 0x1p-8, 1.0 + 0x3p-8,
    };
    std::vector<double> v = {nan, -nan, inf, -inf, 0.0, -0.0};
    for (double m : mags) {
      v.push_back(m);
      v.push_back(-m);
    }
    return v;
  }();
  return kVocab;
}

const std::vector<RawNaN>& RawNaNs() {
  static const std::vector<RawNaN> kRaw = {
      {"signalling, payload in the lowest bit only", 0x7F800001u, 0x7C01u, 0x7F81u},
      {"signalling, payload in the top bit below the quiet bit", 0x7FA00000u, 0x7D00u, 0x7FA0u},
      {"negative signalling, payload in the lowest bit only", 0xFF800001u, 0xFC01u, 0xFF81u},
      {"quiet, payload in the lowest bit only", 0x7FC00001u, 0x7E01u, 0x7FC1u},
      {"quiet, every payload bit set", 0x7FFFFFFFu, 0x7FFFu, 0x7FFFu},
      {"negative quiet, every payload bit set", 0xFFFFFFFFu, 0xFFFFu, 0xFFFFu},
  };
  return kRaw;
}

uint64_t RawNaNBits(const RawNaN& r, vt::DType dt) {
  switch (dt) {
    case vt::DType::kF32: return r.f32;
    case vt::DType::kF16: return r.f16;
    case vt::DType::kBF16: return r.bf16;
    default: break;
  }
  throw std::invalid_argument("RawNaNBits: " + std::string(vt::Name(dt)) + " has no NaN patterns");
}

void ApplyValues(const ValueDecl& d, Case& c) {
  if (!c.params.Has("values")) return;
  const std::string how = c.params.Str("values");
  if (how == "special") {
    for (const SpecialCarrier& s : d.specials) ApplySpecials(s, c);
  } else if (how == "edges" && d.edges) {
    ApplyEdges(d.edges(c.params), c);
  }
}

std::vector<ValueBand> Symmetric(const std::string& tensor, double lo, double hi) {
  return {{tensor, lo, hi}, {tensor, -hi, -lo}};
}

std::vector<ValueBand> ExpBands(const std::string& tensor) {
  std::vector<ValueBand> v = {{tensor, -104.0, -86.0}, {tensor, -31.0, -29.0}, {tensor, 86.0, 104.0}};
  for (const ValueBand& b : Symmetric(tensor, 16.0, 17.5)) v.push_back(b);
  return v;
}

}  // namespace vt::conform
