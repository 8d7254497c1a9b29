#include "harness/catalog/gen.h"

#include <algorithm>
#include <set>

namespace vt::conform::gen {

rc::Gen<int64_t> Rows(Tier t, bool with_zero) {
  std::vector<int64_t> v;
  switch (t) {
    case Tier::kSmoke: v = {1, 2, 3}; break;
    // 255 and 512 rows: a case of ~10^5..10^6 elements, so that a one-ulp f32
    // slip behind a bf16 store (visible only near one of the 2^16 f32 values
    // per bf16 step that sit on a rounding midpoint) is seen by the
    // f32_definition check at the ci tier with high probability.
    case Tier::kCi: v = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 33, 255, 512}; break;
    case Tier::kFull: v = {1, 2, 3, 5, 7, 8, 16, 17, 31, 33, 63, 64, 65, 127, 129}; break;
  }
  if (with_zero && t != Tier::kSmoke) v.push_back(0);
  return gen::Pick(v);
}

rc::Gen<int64_t> Width(Tier t) {
  switch (t) {
    case Tier::kSmoke: return gen::Pick(std::vector<int64_t>{1, 4, 16, 17});
    case Tier::kCi:
      return gen::Pick(std::vector<int64_t>{1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 64, 127,
                                                     128, 129, 256, 1000, 1024, 2048, 4096});
    case Tier::kFull:
      return gen::Pick(std::vector<int64_t>{1, 3, 8, 17, 33, 64, 127, 128, 129, 255, 256,
                                                     1000, 1024, 2047, 2048, 4095, 4096, 4099});
  }
  return rc::gen::just<int64_t>(1);
}

rc::Gen<int64_t> Heads(Tier t) {
  return t == Tier::kSmoke ? gen::Pick(std::vector<int64_t>{1, 2})
                           : gen::Pick(std::vector<int64_t>{1, 2, 3, 4, 8});
}

rc::Gen<std::string> FloatIn() {
  return gen::Pick(std::vector<std::string>{"f32", "f16", "bf16"});
}

rc::Gen<std::string> FloatOut() { return gen::Pick(std::vector<std::string>{"f32", "bf16"}); }

rc::Gen<int64_t> Flag() { return gen::Pick(std::vector<int64_t>{0, 1}); }

rc::Gen<double> Scale() { return gen::Pick(std::vector<double>{1.0, 1.0, 1e-3, 30.0}); }

rc::Gen<double> Eps() { return gen::Pick(std::vector<double>{1e-6, 1e-5, 1e-2}); }

rc::Gen<int64_t> Pad() { return gen::Pick(std::vector<int64_t>{0, 1, 3, 16}); }

rc::Gen<uint64_t> Seed() { return rc::gen::arbitrary<uint64_t>(); }

void DrawRank(Params& p, Tier t) {
  const std::string rank = *gen::Pick(std::vector<std::string>{"2d", "2d", "3d", "1d", "4d"});
  p.Set("rank", rank);
  if (rank == "3d") p.Set("G", *gen::Heads(t));
  if (rank == "4d") {
    p.Set("G", *gen::Pick(std::vector<int64_t>{2, 3}));
    p.Set("G2", *gen::Pick(std::vector<int64_t>{2, 3}));
  }
}

std::vector<int64_t> RankShape(const Params& p, int64_t rows, int64_t inner) {
  const std::string r = p.Str("rank");
  if (r == "1d") return {rows * inner};
  if (r == "3d") return {rows, p.Int("G"), inner};
  if (r == "4d") return {rows, p.Int("G"), p.Int("G2"), inner};
  return {rows, inner};
}

rc::Gen<Params> WithPlacement(rc::Gen<Params> g, bool reshape, bool specials, bool edges) {
  return rc::gen::exec([g, reshape, specials, edges] {
    Params p = *g;
    p.Set("layout", *gen::Pick(std::vector<std::string>{"separate", "packed", "offset"}));
    if (reshape) {
      p.Set("reshape", *gen::Pick(std::vector<std::string>{"keep", "flat", "reversed", "unit", "mixed", "mixed_shifted",
                                                           "rank4"}));
    }
    // Normal first (shrinks to it) and twice: the fills stay the common case.
    std::vector<std::string> values = {"normal", "normal"};
    if (specials) values.push_back("special");
    if (edges) values.push_back("edges");
    if (values.size() > 2) p.Set("values", *gen::Pick(values));
    return p;
  });
}

std::vector<int64_t> Rank4(int64_t n, std::size_t index) {
  // Prime factors, largest first, each into the bin with the smallest product
  // so far: four balanced factors, each > 1 when n has four prime factors.
  std::vector<int64_t> primes;
  int64_t rest = n;
  for (int64_t p = 2; p * p <= rest; ++p) {
    while (rest % p == 0) {
      primes.push_back(p);
      rest /= p;
    }
  }
  if (rest > 1 || primes.empty()) primes.push_back(rest);  // n = 0 or 1 lands here as itself
  std::vector<int64_t> bins(4, 1);
  for (auto it = primes.rbegin(); it != primes.rend(); ++it) {
    *std::min_element(bins.begin(), bins.end()) *= *it;
  }
  // Extents of 1 lead; the index-th operand takes the rest rotated by its
  // index, so operands of one count get unequal rank-4 shapes.
  std::stable_partition(bins.begin(), bins.end(), [](int64_t b) { return b == 1; });
  const auto first = std::find_if(bins.begin(), bins.end(), [](int64_t b) { return b != 1; });
  const auto span = bins.end() - first;
  if (span > 1) std::rotate(first, first + static_cast<std::ptrdiff_t>(index % static_cast<std::size_t>(span)), bins.end());
  return bins;
}

std::vector<int64_t> Reshaped(const std::vector<int64_t>& shape, const std::string& how, std::size_t index) {
  if (how == "mixed" || how == "mixed_shifted") {
    // Two rotations, so that each operand is sometimes flat and sometimes
    // 2-D beside a differently shaped partner.
    static const char* kEach[] = {"flat", "reversed", "unit", "keep"};
    return Reshaped(shape, kEach[(index + (how == "mixed" ? 0 : 1)) % 4], 0);
  }
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  if (how == "flat") return {n};
  if (how == "reversed") return std::vector<int64_t>(shape.rbegin(), shape.rend());
  if (how == "unit") return {1, n};
  if (how == "rank4") return Rank4(n, index);
  return shape;
}

std::vector<Params> Draw(const rc::Gen<Params>& g, uint64_t seed, int count) {
  std::vector<Params> out;
  std::set<std::string> seen;
  rc::Random random(seed);
  // A few extra attempts absorb duplicate identities from small choice sets.
  for (int attempt = 0; attempt < count * 4 && static_cast<int>(out.size()) < count; ++attempt) {
    const Params p = g(random.split(), rc::kNominalSize).value();
    if (seen.insert(p.Identity()).second) out.push_back(p);
  }
  return out;
}

}  // namespace vt::conform::gen
