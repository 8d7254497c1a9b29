// vt-report merge: the results documents of the shards of one run (vt-conform
// --shard i/n) joined into the document the unsharded run writes.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "reports/summarize.h"

namespace vt::reports {

// A shard set that is not one whole run: one line naming the files and why.
struct MergeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The meta fields that make two documents the same run. Shards may differ in
// the machine (cpu, threads, date), never in these.
const std::vector<std::string>& RunIdentityFields();

// docs[k] was read from names[k]. Refuses (MergeError) a document that is not
// a finished results document of this schema version, shards of different
// runs (any RunIdentityFields value), a shard named twice and a missing
// shard. The merged cases are in the unsharded run's order (case k of the
// run is case k / n of shard k % n); summary and matrix are recomputed.
Json MergeShards(const std::vector<Json>& docs, const std::vector<std::string>& names);

// "I/N" -> (I, N); false when malformed.
bool ParseShard(const std::string& s, int& index, int& count);

}  // namespace vt::reports
