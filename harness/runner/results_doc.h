// Summary -> the results document reports/ renders (reports/SCHEMA.md).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "harness/runner/runner.h"

namespace vt::conform {

struct RunMeta {
  std::string tool = "vt-conform";
  std::string command;
  std::string shard = "0/1";
};

nlohmann::ordered_json ResultsDocument(const Summary& s, const RunConfig& cfg, const RunMeta& meta);
nlohmann::ordered_json CaseJson(const CaseResult& r);

// Facts about this build and machine for the report header.
std::string GitSha();
std::string CompilerVersion();
std::string CpuModel();

}  // namespace vt::conform
