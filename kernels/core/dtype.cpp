#include "vt/dtype.h"

#include "vt/error.h"

namespace vt {

std::size_t SizeOf(DType dt) {
  switch (dt) {
    case DType::kF32: return 4;
    case DType::kF16: return 2;
    case DType::kBF16: return 2;
    case DType::kI8: return 1;
    case DType::kU8: return 1;
    case DType::kI32: return 4;
    case DType::kI64: return 8;
  }
  throw Error("dtype", "unknown dtype value " + std::to_string(static_cast<int>(dt)));
}

std::string_view Name(DType dt) {
  switch (dt) {
    case DType::kF32: return "f32";
    case DType::kF16: return "f16";
    case DType::kBF16: return "bf16";
    case DType::kI8: return "i8";
    case DType::kU8: return "u8";
    case DType::kI32: return "i32";
    case DType::kI64: return "i64";
  }
  return "?";
}

std::optional<DType> ParseDType(std::string_view name) {
  for (DType dt : kAllDTypes) {
    if (Name(dt) == name) return dt;
  }
  return std::nullopt;
}

bool IsFloat(DType dt) { return dt == DType::kF32 || dt == DType::kF16 || dt == DType::kBF16; }

}  // namespace vt
