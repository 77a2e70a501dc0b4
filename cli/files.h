// Reading a command's input file and writing its output file.
#ifndef ARBITER_CLI_FILES_H_
#define ARBITER_CLI_FILES_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace arbiter::cli {

// The whole of `path`, or of stdin when `path` is "-". NOT_FOUND when it
// cannot be opened, DATA_LOSS when reading fails part way; the message
// names neither the path nor the command (callers prefix those).
absl::StatusOr<std::string> ReadInput(const std::string& path);

// True when "-" (stdin) is among `paths` more than once: it can be read
// only once.
bool ReadsStdinTwice(const std::vector<std::string>& paths);

// Writes `content` to `path` through `path`.tmp renamed over it, so a
// reader never sees half a file. UNAVAILABLE when it cannot be written.
absl::Status WriteFileAtomically(const std::string& path, std::string_view content);

}  // namespace arbiter::cli

#endif  // ARBITER_CLI_FILES_H_
