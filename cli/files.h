// Reading a command's input file and writing its output file, and saying in
// words why a path could not be used ("no such file", "the folder /x does
// not exist", "permission denied"), for the one-line errors of complaint.h.
#ifndef ARBITER_CLI_FILES_H_
#define ARBITER_CLI_FILES_H_

#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace arbiter::cli {

// The whole of `path`, or of stdin when `path` is "-". NOT_FOUND when it
// cannot be opened (the message says why: "no such file", "permission
// denied", "a folder, not a file"), DATA_LOSS when reading fails part way;
// the message names neither the path nor the command (callers prefix those).
absl::StatusOr<std::string> ReadInput(const std::string& path);

// True when "-" (stdin) is among `paths` more than once: it can be read
// only once.
bool ReadsStdinTwice(const std::vector<std::string>& paths);

// OK when a file can be written at `path`: its folder exists and may be
// written to, and `path` is not a folder. Checked before a command does its
// work, so that a mistyped output path costs nothing. INVALID_ARGUMENT
// saying why otherwise, naming neither the path nor the command.
absl::Status CheckWritable(const std::string& path);

// Writes `content` to `path` through `path`.tmp renamed over it, so a
// reader never sees half a file (and nothing is left behind on failure).
// INVALID_ARGUMENT when the path cannot be written for a reason of its own
// (no such folder, permission denied, a folder), UNAVAILABLE when writing
// fails otherwise (a full disk); the message names `path` and says why.
absl::Status WriteFileAtomically(const std::string& path, std::string_view content);

// Why opening `path` failed with `error` (an errno), in a few words.
std::string WhyNotOpened(const std::string& path, int error);

// Opens `path` in `file` to read it as a stream; nullopt, or why not in
// WhyNotOpened's words. A folder opens as a stream on Linux and fails only at
// the first read ("reading failed part way"), so it is named first.
std::optional<std::string> OpenToRead(const std::string& path, std::ifstream* file);

}  // namespace arbiter::cli

#endif  // ARBITER_CLI_FILES_H_
