// Storage dtypes of the vt kernel set and their element sizes.
//
// fp8 e4m3fn and packed fp4 e2m1 have no DType of their own: their bytes travel
// as kU8 and the op's contract says how to read them (see codec.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace vt {

enum class DType : uint8_t { kF32, kF16, kBF16, kI8, kU8, kI32, kI64 };

inline constexpr DType kAllDTypes[] = {DType::kF32, DType::kF16, DType::kBF16, DType::kI8,
                                       DType::kU8,  DType::kI32, DType::kI64};

// Bytes per element.
std::size_t SizeOf(DType dt);

// Short lower-case name used in identities, manifests and messages: "f32", "bf16", ...
std::string_view Name(DType dt);

// Inverse of Name(); nullopt for an unknown name.
std::optional<DType> ParseDType(std::string_view name);

// f32, f16 or bf16: the dtypes the CPU kernels load as floating point.
bool IsFloat(DType dt);

}  // namespace vt
