#include "cpu/glue/convert.h"

#include <cstring>

#include "vt/codec.h"

namespace vt::cpu {
namespace {

template <DType S>
inline float Load(const unsigned char* p, int64_t i) {
  if constexpr (S == DType::kF32) {
    float f;
    std::memcpy(&f, p + i * 4, 4);
    return f;
  } else {
    uint16_t h;
    std::memcpy(&h, p + i * 2, 2);
    if constexpr (S == DType::kF16) return F16ToF32(h);
    return BF16ToF32(h);
  }
}

template <DType D>
inline void Store(unsigned char* p, int64_t i, float v) {
  if constexpr (D == DType::kF32) {
    std::memcpy(p + i * 4, &v, 4);
  } else {
    const uint16_t h = D == DType::kF16 ? F32ToF16(v) : F32ToBF16(v);
    std::memcpy(p + i * 2, &h, 2);
  }
}

template <DType D, DType S>
void Convert(void* dst, const void* src, int64_t n) {
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  for (int64_t i = 0; i < n; ++i) Store<D>(d, i, Load<S>(s, i));
}

template <DType D>
ConvertFn PickFrom(DType src) {
  switch (src) {
    case DType::kF32: return &Convert<D, DType::kF32>;
    case DType::kF16: return &Convert<D, DType::kF16>;
    case DType::kBF16: return &Convert<D, DType::kBF16>;
    default: return nullptr;
  }
}

}  // namespace

ConvertFn PickConvert(DType dst, DType src) {
  switch (dst) {
    case DType::kF32: return PickFrom<DType::kF32>(src);
    case DType::kF16: return PickFrom<DType::kF16>(src);
    case DType::kBF16: return PickFrom<DType::kBF16>(src);
    default: return nullptr;
  }
}

}  // namespace vt::cpu
