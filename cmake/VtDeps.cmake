# Dependency discovery. Everything comes from Debian packages installed by
# scripts/install-deps.sh; optional pieces say clearly when they are absent.
find_package(Threads REQUIRED)
find_package(GTest REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
find_package(rapidcheck CONFIG REQUIRED)

# CLI11 (header-only): the command-line parser of vt-conform, vt-golden and
# vt-fuzz. Found by its config file, or by its header where only that exists.
find_package(CLI11 CONFIG QUIET)
if(NOT TARGET CLI11::CLI11)
  find_path(VT_CLI11_INCLUDE CLI/CLI.hpp)
  if(NOT VT_CLI11_INCLUDE)
    message(FATAL_ERROR "CLI11 not found (CLI/CLI.hpp): install libcli11-dev (bash scripts/install-deps.sh)")
  endif()
  add_library(CLI11::CLI11 INTERFACE IMPORTED)
  target_include_directories(CLI11::CLI11 INTERFACE ${VT_CLI11_INCLUDE})
endif()

find_package(benchmark CONFIG QUIET)
set(VT_HAVE_BENCHMARK ${benchmark_FOUND})

# libtorch: the second, independent reference (torch check mode).
option(VT_WITH_TORCH "Look for libtorch (torch reference mode)" ON)
set(VT_HAVE_TORCH OFF)
if(VT_WITH_TORCH)
  find_package(Torch QUIET)
  if(Torch_FOUND)
    set(VT_HAVE_TORCH ON)
  endif()
endif()

# CUDA: the kernels build for the device when nvcc is present; without it the
# CUDA targets are skipped (the cuda check mode then reports SKIPPED).
option(VT_WITH_CUDA "Build CUDA targets when nvcc is found" ON)
set(VT_HAVE_CUDA OFF)
if(VT_WITH_CUDA)
  include(CheckLanguage)
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    enable_language(CUDA)
    set(VT_HAVE_CUDA ON)
  endif()
endif()

# cuda-emu: the CUDA kernel sources compiled for the host and run by the SIMT
# emulation (kernels/cuda/emu). Needs boost.context (libboost-context-dev) and
# the toolkit's headers (cuda_fp16.h / cuda_bf16.h / vector_types.h), not nvcc.
set(VT_HAVE_CUDA_EMU OFF)
find_path(VT_CUDA_TOOLKIT_INCLUDE cuda_bf16.h PATHS /usr/local/cuda/include)
find_path(VT_BOOST_CONTEXT_INCLUDE boost/context/detail/fcontext.hpp)
find_library(VT_BOOST_CONTEXT_LIB boost_context)
if(VT_CUDA_TOOLKIT_INCLUDE AND VT_BOOST_CONTEXT_INCLUDE AND VT_BOOST_CONTEXT_LIB)
  set(VT_HAVE_CUDA_EMU ON)
endif()

function(vt_print_summary)
  message(STATUS "vt-conform configuration:")
  message(STATUS "  -ffp-contract=off : on (all targets)")
  if(VT_HAVE_TORCH)
    message(STATUS "  libtorch          : found (torch mode available)")
  else()
    message(STATUS "  libtorch          : NOT FOUND - the torch reference mode will report SKIPPED; install libtorch-dev")
  endif()
  if(VT_HAVE_CUDA)
    message(STATUS "  CUDA              : ${CMAKE_CUDA_COMPILER} - CUDA targets build")
  else()
    message(STATUS "  CUDA              : nvcc not found - CUDA targets skipped")
  endif()
  if(VT_HAVE_CUDA_EMU)
    message(STATUS "  cuda-emu          : on (boost.context + ${VT_CUDA_TOOLKIT_INCLUDE})")
  else()
    message(STATUS "  cuda-emu          : OFF - needs libboost-context-dev and the CUDA toolkit headers; the cuda mode reports SKIPPED")
  endif()
  if(VT_HAVE_BENCHMARK)
    message(STATUS "  Google Benchmark  : found")
  else()
    message(STATUS "  Google Benchmark  : NOT FOUND - benchmarks skipped")
  endif()
endfunction()
