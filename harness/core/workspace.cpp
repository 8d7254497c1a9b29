#include "harness/core/workspace.h"

#include <cstring>
#include <stdexcept>

namespace vt::conform {

Workspace::Workspace(const Case& c) : params_(c.params) {
  slots_.reserve(c.tensors.size());
  for (const TensorData& t : c.tensors) {
    Slot s;
    s.spec = t;
    s.raw.assign(t.storage.size() + 2 * kGuardBytes, kGuardByte);
    if (!t.storage.empty()) std::memcpy(s.raw.data() + kGuardBytes, t.storage.data(), t.storage.size());
    slots_.push_back(std::move(s));
  }
  // Views are bound after the vector stops moving.
  for (Slot& s : slots_) {
    uint8_t* data = s.storage();
    if (!s.spec.alias_of.empty()) {
      const Slot* target = FindSlot(s.spec.alias_of);
      if (target == nullptr) throw std::out_of_range("alias target '" + s.spec.alias_of + "' missing");
      data = const_cast<uint8_t*>(target->storage()) +
             s.spec.alias_offset * static_cast<int64_t>(vt::SizeOf(target->spec.dtype));
    }
    s.view = s.spec.View(s.spec.null_data ? nullptr : data);
  }
}

const Workspace::Slot* Workspace::FindSlot(const std::string& name) const {
  for (const Slot& s : slots_) {
    if (s.spec.name == name) return &s;
  }
  return nullptr;
}

const vt::Tensor& Workspace::operator[](const std::string& name) const {
  const Slot* s = FindSlot(name);
  if (s == nullptr) throw std::out_of_range("workspace has no tensor '" + name + "'");
  return s->view;
}

const vt::Tensor* Workspace::Find(const std::string& name) const {
  const Slot* s = FindSlot(name);
  return s == nullptr ? nullptr : &s->view;
}

std::string Workspace::CheckGuards() const {
  for (const Slot& s : slots_) {
    const std::size_t n = s.spec.storage.size();
    for (std::size_t i = 0; i < kGuardBytes; ++i) {
      if (s.raw[i] != kGuardByte) {
        return s.spec.name + ": guard byte " + std::to_string(kGuardBytes - i) +
               " before the storage was overwritten";
      }
      if (s.raw[kGuardBytes + n + i] != kGuardByte) {
        return s.spec.name + ": guard byte " + std::to_string(i) + " after the storage (" +
               std::to_string(n) + " bytes) was overwritten";
      }
    }
  }
  return "";
}

std::string Workspace::CheckGaps() const {
  for (const Slot& s : slots_) {
    if (s.spec.IsContiguous()) continue;
    const std::size_t es = vt::SizeOf(s.spec.dtype);
    std::vector<bool> logical(s.spec.storage.size(), false);
    for (int64_t off : s.spec.LogicalOffsets()) {
      for (std::size_t b = 0; b < es; ++b) logical[static_cast<std::size_t>(off) * es + b] = true;
    }
    for (std::size_t i = 0; i < s.spec.storage.size(); ++i) {
      if (!logical[i] && s.storage()[i] != s.spec.storage[i]) {
        return s.spec.name + ": gap byte " + std::to_string(i) + " of the strided view was written";
      }
    }
  }
  return "";
}

Case Workspace::Snapshot() const {
  Case c;
  c.params = params_;
  for (const Slot& s : slots_) {
    TensorData t = s.spec;
    if (!t.storage.empty()) std::memcpy(t.storage.data(), s.storage(), t.storage.size());
    c.tensors.push_back(std::move(t));
  }
  return c;
}

}  // namespace vt::conform
