// Summary -> the results document reports/ renders (reports/SCHEMA.md,
// reports/results.schema.json). The one writer of vt-conform, vt-golden
// check --json and vt-fuzz --json: all three documents carry the same meta.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/runner/runner.h"

namespace vt::conform {

struct RunMeta {
  std::string tool = "vt-conform";
  std::string command;
  std::string shard = "0/1";
  // What was selected (empty: every op / every mode / no --case): part of
  // the run's identity, so vt-report merge refuses shards of other selections.
  std::vector<std::string> ops, modes;
  std::string case_id;
};

// The run's facts: tool and versions, git commit, compiler and flags, CPU and
// ISA tier, thread counts, master seed, tier, shard, selection, backend,
// CUDA / libtorch presence, date. "seconds" is filled by ResultsDocument.
nlohmann::ordered_json MetaJson(const RunConfig& cfg, const RunMeta& meta);

// meta, summary, matrix and every case of `s`.
nlohmann::ordered_json ResultsDocument(const Summary& s, const RunConfig& cfg, const RunMeta& meta);
// One case. `backend` is where its kernel ran (cpu, cuda-emu, cuda).
nlohmann::ordered_json CaseJson(const CaseResult& r, const std::string& backend = "cpu");

// Facts about this build and machine for the report header.
std::string GitSha();     // the checkout's HEAD, "unknown" outside git
bool GitDirty();          // tracked files differ from HEAD
std::string CompilerVersion();
std::string CpuModel();

}  // namespace vt::conform
