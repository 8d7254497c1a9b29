// Element formats the oracles round to, and exact real-number rounding to
// them. Written from the format definitions (IEEE-style sign/exponent/mantissa,
// ties to even), independently of the kernels' bit-level codecs.
#pragma once

#include <optional>
#include <string_view>

#include "vt/dtype.h"

namespace vt::oracle {

enum class Fmt { kF32, kF16, kBF16, kFp8E4M3, kFp4E2M1 };

// Round a real number to the nearest value of `fmt`, ties to even.
// f32/f16/bf16 overflow to +-inf; fp8 e4m3fn and fp4 e2m1 saturate at their
// largest magnitude (448, 6). NaN stays NaN; the sign of zero is kept.
double RoundReal(Fmt fmt, double x);

// Spacing of `fmt` at |x| (the ulp used for ulp-error metrics).
double UlpOf(Fmt fmt, double x);

std::string_view Name(Fmt fmt);
std::optional<Fmt> ParseFmt(std::string_view name);
Fmt FmtOf(vt::DType dt);  // f32/f16/bf16 only

}  // namespace vt::oracle
