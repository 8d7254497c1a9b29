#include "harness/core/params.h"

#include <cctype>
#include <charconv>
#include <cstdio>
#include <ostream>
#include <stdexcept>

namespace vt::conform {
namespace {

std::string FormatNumber(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);  // shortest round-trip form
  std::string s(buf, r.ptr);
  // Keep a marker that this was a floating value so it parses back as one.
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

void AppendValue(const Json& v, std::string& out) {
  if (v.is_array()) {
    out += '[';
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i) out += ',';
      AppendValue(v[i], out);
    }
    out += ']';
  } else if (v.is_number_integer()) {
    out += std::to_string(v.get<int64_t>());
  } else if (v.is_number_float()) {
    out += FormatNumber(v.get<double>());
  } else if (v.is_string()) {
    out += v.get<std::string>();
  } else if (v.is_boolean()) {
    out += v.get<bool>() ? "1" : "0";
  } else {
    throw std::invalid_argument("identity: unsupported argument type");
  }
}

bool IsIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
         c == '+' || c == ':' || c == ';' || c == '>' || c == '/';
}

Json ParseScalar(const std::string& tok) {
  if (tok.empty()) throw std::invalid_argument("identity: empty value");
  int64_t i = 0;
  auto r = std::from_chars(tok.data(), tok.data() + tok.size(), i);
  if (r.ec == std::errc() && r.ptr == tok.data() + tok.size()) return i;
  double d = 0;
  auto rd = std::from_chars(tok.data(), tok.data() + tok.size(), d);
  if (rd.ec == std::errc() && rd.ptr == tok.data() + tok.size()) return d;
  return tok;
}

// value := scalar | '[' value (',' value)* ']'
// Lists nest at most kMaxListDepth deep: the parser recurses per level, and a
// pasted id of 100,000 '[' must be refused, not overflow the stack.
constexpr int kMaxListDepth = 8;

Json ParseValue(const std::string& s, std::size_t& pos, int depth = 0) {
  if (pos < s.size() && s[pos] == '[') {
    if (depth >= kMaxListDepth) throw std::invalid_argument("identity: lists nested deeper than 8");
    ++pos;
    Json arr = Json::array();
    if (pos < s.size() && s[pos] == ']') {
      ++pos;
      return arr;
    }
    for (;;) {
      arr.push_back(ParseValue(s, pos, depth + 1));
      if (pos >= s.size()) throw std::invalid_argument("identity: unterminated list");
      if (s[pos] == ']') {
        ++pos;
        return arr;
      }
      if (s[pos] != ',') throw std::invalid_argument("identity: expected ',' in list");
      ++pos;
    }
  }
  const std::size_t start = pos;
  while (pos < s.size() && IsIdentChar(s[pos])) ++pos;
  return ParseScalar(s.substr(start, pos - start));
}

}  // namespace

Params& Params::Set(const std::string& key, Json value) {
  if (key == "seed") throw std::invalid_argument("'seed' is reserved for Params::seed");
  args[key] = std::move(value);
  return *this;
}

int64_t Params::Int(const std::string& key) const {
  const Json& v = args.at(key);
  if (v.is_boolean()) return v.get<bool>() ? 1 : 0;
  // A repro id is typed by hand: "T=2.5" (or "T=2.0", or "T=abc") must be
  // refused, not run as T=2 - json's get<int64_t> would truncate a double.
  if (!v.is_number_integer()) {
    std::string shown;
    AppendValue(v, shown);
    throw std::invalid_argument("argument '" + key + "' must be an integer, got '" + shown + "'");
  }
  return v.get<int64_t>();
}

double Params::Num(const std::string& key) const {
  const Json& v = args.at(key);
  if (!v.is_number()) throw std::invalid_argument("argument '" + key + "' must be a number, got '" + v.dump() + "'");
  return v.get<double>();
}

std::string Params::Str(const std::string& key) const {
  const Json& v = args.at(key);
  if (!v.is_string()) {
    std::string shown;
    AppendValue(v, shown);
    throw std::invalid_argument("argument '" + key + "' must be a name, got '" + shown + "'");
  }
  return v.get<std::string>();
}

vt::DType Params::DType(const std::string& key) const {
  const auto dt = vt::ParseDType(Str(key));
  if (!dt) throw std::invalid_argument("unknown dtype '" + Str(key) + "' for " + key);
  return *dt;
}

std::string Params::Identity() const {
  std::string out = op + "(";
  bool first = true;
  for (const auto& [key, value] : args.items()) {
    if (!first) out += ',';
    first = false;
    out += key + "=";
    AppendValue(value, out);
  }
  char seed_hex[32];
  std::snprintf(seed_hex, sizeof seed_hex, "0x%llx", static_cast<unsigned long long>(seed));
  out += std::string(first ? "" : ",") + "seed=" + seed_hex + ")";
  return out;
}

Params Params::FromIdentity(const std::string& id) {
  const std::size_t open = id.find('(');
  if (open == std::string::npos || id.empty() || id.back() != ')') {
    throw std::invalid_argument("identity must look like op(key=value,...,seed=0x...): " + id);
  }
  Params p(id.substr(0, open));
  std::size_t pos = open + 1;
  const std::size_t end = id.size() - 1;
  bool have_seed = false;
  while (pos < end) {
    const std::size_t eq = id.find('=', pos);
    if (eq == std::string::npos || eq >= end) throw std::invalid_argument("identity: expected key=value");
    const std::string key = id.substr(pos, eq - pos);
    pos = eq + 1;
    if (key == "seed") {
      const std::size_t stop = id.find_first_of(",)", pos);
      const std::string text = id.substr(pos, stop - pos);
      std::size_t used = 0;
      // stoull would accept "-1" (wrapping) and leading blanks: a seed starts with a digit.
      if (!text.empty() && !std::isdigit(static_cast<unsigned char>(text[0]))) {
        throw std::invalid_argument("identity: bad seed '" + text + "'");
      }
      try {
        p.seed = std::stoull(text, &used, 0);
      } catch (const std::exception&) {
        used = 0;
      }
      // A mistyped repro line must not silently run another case.
      if (text.empty() || used != text.size()) throw std::invalid_argument("identity: bad seed '" + text + "'");
      have_seed = true;
      pos = stop;
    } else {
      p.args[key] = ParseValue(id, pos);
    }
    if (pos < end) {
      if (id[pos] != ',') throw std::invalid_argument("identity: expected ',' after " + key);
      ++pos;
    }
  }
  if (!have_seed) throw std::invalid_argument("identity has no seed: " + id);
  return p;
}

void showValue(const Params& p, std::ostream& os) { os << p.Identity(); }

}  // namespace vt::conform
