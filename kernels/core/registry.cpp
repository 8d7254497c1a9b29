#include "vt/registry.h"

#include <map>
#include <mutex>
#include <utility>

namespace vt {

// Defined in kernels/cpu/register.cpp: registers every CPU kernel of ops.def.
void RegisterBuiltinKernels();

namespace {

struct Table {
  std::mutex mu;
  std::map<std::pair<std::string, Backend>, AnyKernel, std::less<>> kernels;
};

Table& GetTable() {
  static Table t;
  return t;
}

void EnsureBuiltins() {
  static std::once_flag once;
  std::call_once(once, [] { RegisterBuiltinKernels(); });
}

}  // namespace

void RegisterKernel(std::string_view op, Backend backend, AnyKernel fn) {
  Table& t = GetTable();
  std::lock_guard<std::mutex> lk(t.mu);
  t.kernels[{std::string(op), backend}] = fn;
}

AnyKernel FindKernel(std::string_view op, Backend backend) {
  EnsureBuiltins();
  Table& t = GetTable();
  std::lock_guard<std::mutex> lk(t.mu);
  auto it = t.kernels.find(std::make_pair(std::string(op), backend));
  return it == t.kernels.end() ? nullptr : it->second;
}

std::vector<std::string> RegisteredOps(Backend backend) {
  EnsureBuiltins();
  Table& t = GetTable();
  std::lock_guard<std::mutex> lk(t.mu);
  std::vector<std::string> names;
  for (const auto& [key, fn] : t.kernels) {
    if (key.second == backend) names.push_back(key.first);
  }
  return names;
}

}  // namespace vt
