#include "harness/core/workspace.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "harness/core/rng.h"

namespace vt::conform {
namespace {

std::size_t Misalignment(const TensorData& t) {
  if (t.misalign_bytes < 0) throw std::invalid_argument(t.name + ": misalign_bytes must be >= 0");
  return static_cast<std::size_t>(t.misalign_bytes);
}

}  // namespace

Workspace::Workspace(const Case& c) : params_(c.params) {
  slots_.reserve(c.tensors.size());
  for (const TensorData& t : c.tensors) slots_.push_back(Slot{t, 0, 0, {}});
  const std::string layout = params_.Has("layout") ? params_.Str("layout") : "separate";
  if (layout == "offset") {
    // An empty view addresses nothing, so its strides are arbitrary: a
    // validator must not refuse [T, 0] with strides that are not row-major.
    for (Slot& s : slots_) {
      if (s.spec.Numel() != 0) continue;
      for (int64_t& st : s.spec.strides) st = st * 3 + 7;
    }
  }
  if (layout == "packed") {
    PlacePacked(c.params.seed);
  } else if (layout == "separate" || layout == "offset") {
    PlaceSeparate(layout);
  } else {
    throw std::invalid_argument("unknown layout '" + layout + "' (separate, packed, offset)");
  }
  // Views are bound after every buffer is final.
  for (Slot& s : slots_) {
    uint8_t* data = buffers_[s.buffer].data() + s.offset;
    if (!s.spec.alias_of.empty()) {
      const Slot* target = FindSlot(s.spec.alias_of);
      if (target == nullptr) throw std::out_of_range("alias target '" + s.spec.alias_of + "' missing");
      data = buffers_[target->buffer].data() + target->offset +
             s.spec.alias_offset * static_cast<int64_t>(vt::SizeOf(target->spec.dtype));
    }
    s.view = s.spec.View(s.spec.null_data ? nullptr : data);
  }
  initial_ = buffers_;
}

Workspace::~Workspace() {
  if (device_ == nullptr) return;
  for (void* p : device_buffers_) device_->release(p);
}

void Workspace::ToDevice(const vt::DeviceApi& api) {
  if (device_ != nullptr) throw std::logic_error("workspace is already on a device");
  device_ = &api;
  for (const std::vector<uint8_t>& b : buffers_) {
    device_buffers_.push_back(api.alloc(b.size()));
    api.to_device(device_buffers_.back(), b.data(), b.size());
  }
  for (Slot& s : slots_) {
    s.view.device.type = s.spec.device == vt::DeviceType::kCPU ? vt::DeviceType::kCUDA : vt::DeviceType::kCPU;
    if (s.view.data == nullptr) continue;
    const auto* p = static_cast<const uint8_t*>(s.view.data);
    for (std::size_t b = 0; b < buffers_.size(); ++b) {
      const uint8_t* lo = buffers_[b].data();
      if (p >= lo && p <= lo + buffers_[b].size()) {
        s.view.data = static_cast<uint8_t*>(device_buffers_[b]) + (p - lo);
        break;
      }
    }
  }
}

void Workspace::ToHost() {
  if (device_ == nullptr) return;
  for (std::size_t b = 0; b < buffers_.size(); ++b) {
    device_->to_host(buffers_[b].data(), device_buffers_[b], buffers_[b].size());
    device_->release(device_buffers_[b]);
  }
  device_buffers_.clear();
  device_ = nullptr;
  // The views point at released memory now: rebind them to the host copies.
  for (Slot& s : slots_) {
    if (s.view.data == nullptr) continue;
    uint8_t* data = buffers_[s.buffer].data() + s.offset;
    if (!s.spec.alias_of.empty()) {
      const Slot* target = FindSlot(s.spec.alias_of);
      data = buffers_[target->buffer].data() + target->offset +
             s.spec.alias_offset * static_cast<int64_t>(vt::SizeOf(target->spec.dtype));
    }
    s.view.data = data;
    s.view.device.type = s.spec.device;
  }
}

// One allocation per tensor: guard | [lead] | storage | guard. "offset" leads
// with 1..3 elements (derived from the position) that are guard bytes too, as
// is an error case's misalignment.
void Workspace::PlaceSeparate(const std::string& layout) {
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    Slot& s = slots_[i];
    const std::size_t es = vt::SizeOf(s.spec.dtype);
    const std::size_t lead = (layout == "offset" ? es * (1 + i % 3) : 0) + Misalignment(s.spec);
    const std::size_t n = s.spec.storage.size();
    std::vector<uint8_t> raw(kGuardBytes + lead + n + kGuardBytes, kGuardByte);
    s.buffer = buffers_.size();
    s.offset = kGuardBytes + lead;
    if (n != 0) std::memcpy(raw.data() + s.offset, s.spec.storage.data(), n);
    const std::string name = s.spec.name;
    guards_.push_back({s.buffer, 0, s.offset, name + ": guard byte before the storage"});
    guards_.push_back({s.buffer, s.offset + n, raw.size(),
                       name + ": guard byte after the storage (" + std::to_string(n) + " bytes)"});
    buffers_.push_back(std::move(raw));
  }
}

// One allocation: guard | t_a | t_b | ... | guard in an order derived from the
// seed, so that over many cases every pair of operands touches both ways.
void Workspace::PlacePacked(uint64_t seed) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].spec.alias_of.empty()) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return SplitMix64(seed ^ HashName(slots_[a].spec.name)) < SplitMix64(seed ^ HashName(slots_[b].spec.name));
  });
  // An explicit placement (error cases) keeps the case's own order.
  for (std::size_t i : order) {
    if (slots_[i].spec.pack_lead_bytes != 0) {
      std::sort(order.begin(), order.end());
      break;
    }
  }
  int64_t pos = kGuardBytes, end = kGuardBytes;
  for (std::size_t i : order) {
    Slot& s = slots_[i];
    // The first multiple of the element size at or after the lead: the
    // alignment contract, at the cost of at most es - 1 guard bytes.
    const auto es = static_cast<int64_t>(vt::SizeOf(s.spec.dtype));
    pos = std::max<int64_t>(kGuardBytes, pos + s.spec.pack_lead_bytes);
    pos = (pos + es - 1) / es * es + static_cast<int64_t>(Misalignment(s.spec));
    s.buffer = 0;
    s.offset = static_cast<std::size_t>(pos);
    pos += static_cast<int64_t>(s.spec.storage.size());
    end = std::max(end, pos);
  }
  std::vector<uint8_t> raw(static_cast<std::size_t>(end) + kGuardBytes, kGuardByte);
  std::vector<bool> covered(raw.size(), false);
  for (std::size_t i : order) {
    const Slot& s = slots_[i];
    const std::size_t n = s.spec.storage.size();
    if (n != 0) std::memcpy(raw.data() + s.offset, s.spec.storage.data(), n);
    std::fill(covered.begin() + static_cast<std::ptrdiff_t>(s.offset),
              covered.begin() + static_cast<std::ptrdiff_t>(s.offset + n), true);
  }
  // Every byte no tensor owns is a guard: the two ends and any leads.
  for (std::size_t b = 0; b < raw.size();) {
    if (covered[b]) {
      ++b;
      continue;
    }
    std::size_t e = b;
    while (e < raw.size() && !covered[e]) ++e;
    guards_.push_back({0, b, e, "packed allocation: guard bytes [" + std::to_string(b) + "," + std::to_string(e) + ")"});
    b = e;
  }
  buffers_.push_back(std::move(raw));
  // Aliased views own no bytes; give them a valid buffer index.
  for (Slot& s : slots_) {
    if (!s.spec.alias_of.empty()) s.buffer = 0;
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

void Workspace::MutateView(const std::string& name, const std::function<void(vt::Tensor&)>& f) {
  Slot* s = const_cast<Slot*>(FindSlot(name));
  if (s == nullptr) throw std::out_of_range("workspace has no tensor '" + name + "'");
  f(s->view);
}

std::string Workspace::CheckGuards() const {
  for (const Guard& g : guards_) {
    for (std::size_t i = g.begin; i < g.end; ++i) {
      if (buffers_[g.buffer][i] != kGuardByte) {
        return g.what + " was overwritten (byte " + std::to_string(i - g.begin) + " of " +
               std::to_string(g.end - g.begin) + ")";
      }
    }
  }
  return "";
}

std::string Workspace::CheckGaps() const {
  for (const Slot& s : slots_) {
    if (s.spec.IsContiguous() || !s.spec.alias_of.empty()) continue;
    const std::size_t es = vt::SizeOf(s.spec.dtype);
    std::vector<bool> logical(s.spec.storage.size(), false);
    for (int64_t off : s.spec.LogicalOffsets()) {
      for (std::size_t b = 0; b < es; ++b) logical[static_cast<std::size_t>(off) * es + b] = true;
    }
    const uint8_t* now = Storage(s);
    for (std::size_t i = 0; i < s.spec.storage.size(); ++i) {
      if (!logical[i] && now[i] != s.spec.storage[i]) {
        return s.spec.name + ": gap byte " + std::to_string(i) + " of the strided view was written";
      }
    }
  }
  return "";
}

std::string Workspace::CheckUnchanged() const {
  for (std::size_t b = 0; b < buffers_.size(); ++b) {
    if (buffers_[b] == initial_[b]) continue;
    std::size_t i = 0;
    while (buffers_[b][i] == initial_[b][i]) ++i;
    for (const Slot& s : slots_) {
      if (s.buffer == b && s.spec.alias_of.empty() && i >= s.offset && i < s.offset + s.spec.storage.size()) {
        return "operand " + s.spec.name + " was modified (byte " + std::to_string(i - s.offset) + ")";
      }
    }
    return "a guard or gap byte was modified";
  }
  return "";
}

Case Workspace::Snapshot() const {
  Case c;
  c.params = params_;
  for (const Slot& s : slots_) {
    TensorData t = s.spec;
    if (!t.alias_of.empty()) {
      const Slot* target = FindSlot(t.alias_of);
      const uint8_t* p = Storage(*target) + t.alias_offset * static_cast<int64_t>(vt::SizeOf(target->spec.dtype));
      if (!t.storage.empty()) std::memcpy(t.storage.data(), p, t.storage.size());
    } else if (!t.storage.empty()) {
      std::memcpy(t.storage.data(), Storage(s), t.storage.size());
    }
    c.tensors.push_back(std::move(t));
  }
  return c;
}

}  // namespace vt::conform
