// isa mode: every vector tier of an op (vt::OpTiers) must give the portable
// tier's bytes. The reference is the portable tier at 1 thread; each tier the
// CPU runs is then run at threads {1, 2, 3} and 4 with the GEMM steal switch,
// and every operand's storage - outputs, in-place operands, inputs, strided
// gaps - must equal it byte for byte, guards intact (where two NaNs meet:
// NaN-ness, not the payload; NanLatitude below). The portable tier itself
// runs the same thread variants: once the process default is a vector tier,
// the threads mode no longer runs it, and this mode must. The tier-run
// counts (vt/isa.h) must show that each call ran the tier it asked for: a
// dispatch that ignores the request would otherwise compare a tier with
// itself and pass.
//
// Cases: the op's generated tier cases, plus vector tails drawn on purpose -
// cases whose inner length (the last extent of the first written operand:
// the run of elements a vector loop walks, output columns for GEMM) is below
// the AVX2 width, between the AVX2 and AVX-512 widths, or above it and not a
// multiple of it (docs/isa.md). --isa avx2|avx512 restricts the check to
// that tier (the repro line of a failure names it).
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "harness/catalog/claims.h"
#include "harness/catalog/gen.h"
#include "harness/core/rng.h"
#include "harness/modes/mode.h"
#include "harness/modes/tier_bytes.h"
#include "vt/isa.h"

namespace vt::conform {
namespace {

struct ThreadVariant {
  int threads;
  bool steal;
};
constexpr ThreadVariant kThreadVariants[] = {{1, false}, {2, false}, {3, false}, {4, true}};
constexpr int kAvx2Lanes = 8, kAvx512Lanes = 16;  // f32 lanes: the widths whose tails matter

// The length a vector loop walks in this case: the last extent of the first
// written operand; -1 when the case writes nothing.
int64_t InnerLength(const Case& c) {
  for (const TensorData& t : c.tensors) {
    if (t.role != Role::kInput && !t.shape.empty()) return t.shape.back();
  }
  return -1;
}

// 0: below the AVX2 width; 1: between the widths; 2: above the AVX-512
// width and not a multiple of it; -1: no tail (a multiple of 16, or empty).
int TailClass(int64_t n) {
  if (n <= 0) return -1;
  if (n < kAvx2Lanes) return 0;
  if (n > kAvx2Lanes && n < kAvx512Lanes) return 1;
  if (n > kAvx512Lanes && n % kAvx512Lanes != 0) return 2;
  return -1;
}

// Tail cases per class, and how many extra draws may be spent finding them.
int TailsPerClass(Tier t) { return std::vector<int>{1, 2, 4}[static_cast<int>(t)]; }
constexpr int kTailDraws = 96;

std::string Hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%" PRIx64, v);
  return b;
}

// The first differing logical elements of `got` against `want` (same spec).
std::string FirstDiffs(const TensorData& got, const TensorData& want) {
  const auto gb = got.LogicalBytes(), wb = want.LogicalBytes();
  const std::size_t es = vt::SizeOf(got.dtype);
  std::string out;
  int shown = 0, total = 0;
  for (std::size_t k = 0; k * es < gb.size() && k * es < wb.size(); ++k) {
    if (std::memcmp(gb.data() + k * es, wb.data() + k * es, es) == 0) continue;
    ++total;
    if (shown == 5) continue;
    uint64_t gbits = 0, wbits = 0;
    std::memcpy(&gbits, gb.data() + k * es, es);
    std::memcpy(&wbits, wb.data() + k * es, es);
    char line[200];
    std::snprintf(line, sizeof line, "    %s[flat %zu]: %.9g (%s) vs portable %.9g (%s)\n", got.name.c_str(), k,
                  DecodeElement(got.dtype, got.fmt, gb.data() + k * es), Hex(gbits).c_str(),
                  DecodeElement(want.dtype, want.fmt, wb.data() + k * es), Hex(wbits).c_str());
    out += line;
    ++shown;
  }
  if (total > shown) out += "    ... " + std::to_string(total - shown) + " more elements differ\n";
  if (total == 0) out += "    every logical element equal: the difference is in a strided gap\n";
  return out;
}

bool FloatDType(vt::DType dt) { return dt == vt::DType::kF32 || dt == vt::DType::kF16 || dt == vt::DType::kBF16; }

struct Counts {
  uint64_t n[4];
  static Counts Now() {
    Counts c{};
    for (Isa t : {Isa::kAuto, Isa::kPortable, Isa::kAvx2, Isa::kAvx512}) c.n[static_cast<int>(t)] = TierRunCount(t);
    return c;
  }
};

// Empty when the run between `before` and `after` counted only tier `want`
// (and counted it at least once when `must_count`); else what ran instead.
std::string TierRunError(const Counts& before, const Counts& after, Isa want, bool must_count) {
  std::string other;
  for (Isa t : {Isa::kPortable, Isa::kAvx2, Isa::kAvx512}) {
    const uint64_t d = after.n[static_cast<int>(t)] - before.n[static_cast<int>(t)];
    if (t != want && d > 0) other += (other.empty() ? "" : ", ") + std::string(Name(t)) + " x" + std::to_string(d);
  }
  if (!other.empty()) return "asked for " + std::string(Name(want)) + ", ran " + other;
  if (must_count && after.n[static_cast<int>(want)] == before.n[static_cast<int>(want)]) {
    return "asked for " + std::string(Name(want)) + ", but it counted no work (the portable tier did on this case)";
  }
  return "";
}

class IsaMode : public Mode {
 public:
  std::string_view name() const override { return "isa"; }
  bool Covers(const OpSpec& op) const override { return op.run != nullptr && !OpTiers(op.name).empty(); }

  std::vector<CaseRef> Enumerate(const OpSpec& op, const RunConfig& cfg) const override {
    std::vector<CaseRef> refs = TierRefs(op, cfg, name());
    std::vector<std::string> seen;
    for (const CaseRef& r : refs) seen.push_back(r.id);
    int found[3] = {0, 0, 0};
    // A stream of its own: the tail cases do not shift the shared tier stream.
    const uint64_t seed = cfg.seed ^ HashName(op.name) ^ HashName("isa-vector-tails");
    for (const Params& p : gen::Draw(op.gen(cfg.tier), seed, kTailDraws)) {
      const int cls = TailClass(InnerLength(BuildCase(op, p)));
      if (cls < 0 || found[cls] >= TailsPerClass(cfg.tier)) continue;
      const std::string id = p.Identity();
      if (std::find(seen.begin(), seen.end(), id) != seen.end()) continue;
      ++found[cls];
      seen.push_back(id);
      refs.push_back({id, p, "", ""});
    }
    return refs;
  }

  CaseResult Check(const OpSpec& op, const CaseRef& ref, const RunConfig& cfg) const override {
    CaseResult r = StartResult(op, name(), ref, cfg);
    const std::vector<Isa> tiers = OpTiers(op.name);
    std::vector<Isa> run_tiers;
    for (Isa t : tiers) {
      const bool asked = cfg.isa == Isa::kAuto || cfg.isa == Isa::kPortable || cfg.isa == t;
      if (asked && IsaSupported(t)) run_tiers.push_back(t);
    }
    if (run_tiers.empty()) {
      r.status = Outcome::kSkipped;
      // Two different reasons: --isa names a tier the op does not have
      // (silu_and_mul has no avx2 tier), or the CPU lacks the op's tiers.
      const bool forced = cfg.isa == Isa::kAvx2 || cfg.isa == Isa::kAvx512;
      if (forced && std::find(tiers.begin(), tiers.end(), cfg.isa) == tiers.end()) {
        r.reason = "the op has no " + std::string(vt::Name(cfg.isa)) + " tier (asked for by --isa)";
      } else {
        r.reason = "this CPU runs none of the op's vector tiers" + std::string(forced ? " asked for by --isa" : "");
      }
      return r;
    }
    // A tier whose libm transcription fell back to the scalar call gives the
    // portable bytes without running its vector math: where the loaded libm
    // is the one transcribed, the transcription is broken - a failure the
    // bytes alone cannot show; under another libm the fallback is the design
    // (noted, then checked as usual).
    for (Isa t : run_tiers) {
      const std::string fallback = LibmFallback(op.name, t);
      if (fallback.empty()) continue;
      if (LibmLoaded() == LibmTranscribedFrom()) {
        return Fail(r, Outcome::kFailedIncorrect, t,
                    fallback + " - and this process runs glibc " + LibmLoaded() +
                        ", the version it transcribes: the vector transcription is broken",
                    "");
      }
      r.metrics["isa"]["libm_fallback"][std::string(Name(t))] =
          fallback + " (glibc " + LibmLoaded() + "; the transcription is of " + std::string(LibmTranscribedFrom()) + ")";
    }
    const Case c = MakeCase(op, ref.params);
    const int64_t inner = InnerLength(c);
    r.metrics["isa"]["inner_length"] = inner;
    r.metrics["isa"]["tail_class"] = std::vector<std::string>{"below avx2 width", "between widths", "ragged above avx512 width"}
        [static_cast<std::size_t>(std::max(TailClass(inner), 0))];
    if (TailClass(inner) < 0) r.metrics["isa"]["tail_class"] = "none";
    try {
      Counts before = Counts::Now();
      const Execution base = Execute(op, c, vt::ExecContext{vt::Backend::kCPU, 1, false, Isa::kPortable});
      if (!base.guard_error.empty()) return Fail(r, Outcome::kFailedError, Isa::kPortable, "portable threads=1: " + base.guard_error, "");
      Counts after = Counts::Now();
      const bool portable_counted = after.n[static_cast<int>(Isa::kPortable)] > before.n[static_cast<int>(Isa::kPortable)];
      std::string err = TierRunError(before, after, Isa::kPortable, false);
      if (!err.empty()) return Fail(r, Outcome::kFailedIncorrect, Isa::kPortable, "tier dispatch: " + err, "");
      std::string ran;
      int64_t nan_pairs = 0;
      run_tiers.insert(run_tiers.begin(), Isa::kPortable);
      for (Isa t : run_tiers) {
        for (const ThreadVariant& v : kThreadVariants) {
          if (t == Isa::kPortable && v.threads == 1 && !v.steal) continue;  // the reference itself
          const std::string label =
              std::string(Name(t)) + " threads=" + std::to_string(v.threads) + (v.steal ? " steal" : "");
          before = Counts::Now();
          const Execution run = Execute(op, c, vt::ExecContext{vt::Backend::kCPU, v.threads, v.steal, t});
          after = Counts::Now();
          if (!run.guard_error.empty()) return Fail(r, Outcome::kFailedError, t, label + ": " + run.guard_error, "");
          err = TierRunError(before, after, t, portable_counted);
          if (!err.empty()) return Fail(r, Outcome::kFailedIncorrect, t, label + ": tier dispatch: " + err, "");
          for (const TensorData& got : run.after.tensors) {
            const TensorData& want = base.after.Get(got.name);
            if (got.storage == want.storage) continue;
            if (!op.oracle_bytes && NanLatitude(got, want, nan_pairs) == want.storage) continue;
            return Fail(r, Outcome::kFailedIncorrect, t,
                        label + ": " + got.name + " differs from the portable tier (threads=1)", FirstDiffs(got, want));
          }
        }
        ran += (ran.empty() ? "" : ", ") + std::string(Name(t));
      }
      r.metrics["isa"]["tiers"] = ran;
      r.metrics["isa"]["nan_payload_differences"] = nan_pairs;
      r.tolerance = "bytes equal to the portable tier's (threads 1), every operand and gap, at threads 1, 2, 3 "
                    "and 4 with steal";
    } catch (const std::exception& e) {
      r.status = Outcome::kFailedError;
      r.reason = std::string("refused or failed on a valid case: ") + e.what();
    }
    return r;
  }

 private:
  static CaseResult Fail(CaseResult r, Outcome o, Isa tier, std::string reason, std::string detail) {
    r.status = o;
    r.reason = std::move(reason);
    r.detail = std::move(detail);
    r.isa = std::string(Name(tier));  // the repro line names the tier that failed
    return r;
  }
};

}  // namespace

// got's storage with each logical element where got and want are both NaN
// replaced by want's bytes; `pairs` counts them. Which payload an arithmetic
// result carries when two NaNs meet is the instruction's operand order - a
// choice IEEE 754 and C++ leave open and the compiler makes for the portable
// tier (its GEMM adds the product to the sum, the vector tiers may do it the
// other way round) - so, as the f32 definition check does (DiffBytes
// any_nan), the tiers are held to NaN-ness there, not to a payload. Ops whose
// payloads ARE defined (copies, casts: oracle_bytes) get no such latitude.
std::vector<uint8_t> NanLatitude(const TensorData& got, const TensorData& want, int64_t& pairs) {
  std::vector<uint8_t> s = got.storage;
  if (!FloatDType(got.dtype) || got.storage.size() != want.storage.size()) return s;
  const std::size_t es = vt::SizeOf(got.dtype);
  for (int64_t off : got.LogicalOffsets()) {
    const std::size_t at = static_cast<std::size_t>(off) * es;
    if (std::memcmp(s.data() + at, want.storage.data() + at, es) == 0) continue;
    if (std::isnan(DecodeElement(got.dtype, got.fmt, s.data() + at)) &&
        std::isnan(DecodeElement(want.dtype, want.fmt, want.storage.data() + at))) {
      std::memcpy(s.data() + at, want.storage.data() + at, es);
      ++pairs;
    }
  }
  return s;
}

std::unique_ptr<Mode> MakeIsaMode() { return std::make_unique<IsaMode>(); }

}  // namespace vt::conform
