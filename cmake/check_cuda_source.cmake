# Device code uses no fast-math intrinsic, no fused multiply-add and no
# device-only branch outside the documented places (ctest: cuda.source_rules).
# Usage: cmake -DROOT=<checkout> -P cmake/check_cuda_source.cmake
#
# Why a source check: code under `#if defined(__CUDA_ARCH__)` is compiled by
# nvcc only, so the emulation (cuda-emu, the backend every CI run checks) never
# executes it; and an intrinsic such as __expf (2 ulp) or a fused fmaf (one
# rounding where the CPU has two) breaks the tolerance model or the byte
# equality with the CPU on the device while the host build still passes.
# docs/cuda.md ("Numerics") lists what device code may use: IEEE + - * /,
# __fsqrt_rn, and exp/tanh/log1p through double on the device.
if(NOT ROOT)
  message(FATAL_ERROR "check_cuda_source: pass -DROOT=<checkout>")
endif()

# Forbidden calls (a name regex, matched as an identifier followed by "(",
# then the reason), in pairs.
set(forbidden
  "__expf" "approximate exp (2 ulp)"
  "__exp10f" "approximate exp10"
  "__logf" "approximate log"
  "__log2f" "approximate log2"
  "__log10f" "approximate log10"
  "__powf" "approximate pow"
  "__sinf" "approximate sin"
  "__cosf" "approximate cos"
  "__sincosf" "approximate sincos"
  "__tanf" "approximate tan"
  "__fdividef" "approximate division"
  "__saturatef" "clamps NaN to 0"
  "__frcp_r[nzud]" "a reciprocal where the CPU divides"
  "__frsqrt_rn" "a reciprocal square root where the CPU divides by sqrt"
  "rsqrtf?" "approximate reciprocal square root"
  "__fsqrt_r[zud]" "a square root not rounded to nearest"
  "__f(add|sub|mul|div)_r[zud]" "an operation not rounded to nearest"
  "__d(add|sub|mul|div)_r[zud]" "an operation not rounded to nearest"
  "__fmaf?_r[nzud]" "a fused multiply-add (one rounding where the CPU has two)"
  "__fma_r[nzud]" "a fused multiply-add"
  "fmaf?" "a fused multiply-add (one rounding where the CPU has two)"
  "__fmaf_ieee_r[nzud]" "a fused multiply-add"
)
# Files allowed to hold a __CUDA_ARCH__ branch, and how many lines may name it
# (docs/cuda.md: exp, tanh, sqrt and log1p on the device).
set(arch_allowed "kernels/cuda/core/access.cuh|4")

file(GLOB_RECURSE sources "${ROOT}/kernels/cuda/*.cu" "${ROOT}/kernels/cuda/*.cuh")
set(problems "")
list(LENGTH forbidden n_rules)
math(EXPR last_rule "${n_rules} - 2")
list(LENGTH sources n_files)
if(n_files EQUAL 0)
  message(FATAL_ERROR "check_cuda_source: no .cu or .cuh file under ${ROOT}/kernels/cuda")
endif()
foreach(src IN LISTS sources)
  file(RELATIVE_PATH rel "${ROOT}" "${src}")
  file(STRINGS "${src}" lines)
  set(line_no 0)
  set(arch_lines 0)
  foreach(line IN LISTS lines)
    math(EXPR line_no "${line_no} + 1")
    string(REGEX REPLACE "//.*$" "" code "${line}")  # comments may name what is forbidden
    if(code MATCHES "__CUDA_ARCH__")
      math(EXPR arch_lines "${arch_lines} + 1")
    endif()
    foreach(i RANGE 0 ${last_rule} 2)
      math(EXPR j "${i} + 1")
      list(GET forbidden ${i} name)
      list(GET forbidden ${j} why)
      if(code MATCHES "(^|[^A-Za-z0-9_])(${name})[ \t]*\\(")
        string(APPEND problems "  ${rel}:${line_no}: ${CMAKE_MATCH_2}(...) - ${why}\n")
      endif()
    endforeach()
  endforeach()
  set(allowed 0)
  foreach(entry IN LISTS arch_allowed)
    string(REPLACE "|" ";" parts "${entry}")
    list(GET parts 0 file)
    list(GET parts 1 count)
    if(rel STREQUAL file)
      set(allowed ${count})
    endif()
  endforeach()
  if(arch_lines GREATER allowed)
    string(APPEND problems "  ${rel}: ${arch_lines} lines name __CUDA_ARCH__, ${allowed} allowed (device-only code is invisible to cuda-emu; docs/cuda.md lists the allowed branches)\n")
  endif()
endforeach()

if(problems)
  message(FATAL_ERROR "check_cuda_source: device code outside the rules of docs/cuda.md:\n${problems}")
endif()
message(STATUS "check_cuda_source: ${n_files} files, no fast-math intrinsic, no FMA, __CUDA_ARCH__ only where documented")
