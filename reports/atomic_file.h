// Atomic outputs: every file the tools write (reports, --json, lock files,
// saved cases) is written to a temporary name in the same folder, flushed to
// disk, then renamed over the destination. A run killed mid-write leaves either
// the old file or the new one, never a truncated mix. Lives in vt_reports (the
// lowest library every tool links) so the report writers can use it too.
#pragma once

#include <string>

namespace vt::reports {

// Writes `bytes` to `path` atomically (temp file in path's folder, fsync,
// rename, fsync of the folder). The folder must exist. Throws
// std::runtime_error with one line naming `path` and the system's reason.
void AtomicWriteFile(const std::string& path, const std::string& bytes);

// Removes `path` if it is there (a stale report must not outlive a new run).
// Throws std::runtime_error naming the path when it cannot.
void RemoveIfPresent(const std::string& path);

// A fresh, empty folder next to `final_dir` (same parent, so a rename moves it
// in one step), named .<final name>.tmp.<pid>.<n>. Creates the parent.
std::string MakeTempDirNextTo(const std::string& final_dir);

// Moves the finished `temp_dir` to `final_dir`, replacing a folder already
// there (it is renamed aside first, then deleted, so `final_dir` is never half
// written). Throws std::runtime_error naming the path on failure.
void CommitTempDir(const std::string& temp_dir, const std::string& final_dir);

}  // namespace vt::reports
