#include "ledger/tlog_checkpoint.h"

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace arbiter::ledger {

absl::StatusOr<std::string> FormatCheckpointBody(const CheckpointBody& body) {
  auto bad_line = [](absl::string_view line) {
    return line.empty() || line.find('\n') != absl::string_view::npos;
  };
  if (bad_line(body.origin)) {
    return absl::InvalidArgumentError("a checkpoint's origin must be one non-empty line");
  }
  std::string out = absl::StrCat(body.origin, "\n", body.tree_size, "\n",
                                 absl::Base64Escape(AsBytes(body.root)), "\n");
  for (const std::string& line : body.extensions) {
    if (bad_line(line)) {
      return absl::InvalidArgumentError("a checkpoint's extension lines must be non-empty lines");
    }
    absl::StrAppend(&out, line, "\n");
  }
  return out;
}

absl::StatusOr<CheckpointBody> ParseCheckpointBody(absl::string_view text) {
  if (text.empty() || text.back() != '\n') {
    return absl::InvalidArgumentError("a checkpoint body ends in a newline");
  }
  std::vector<absl::string_view> lines = absl::StrSplit(text.substr(0, text.size() - 1), '\n');
  if (lines.size() < 3) {
    return absl::InvalidArgumentError("a checkpoint body has an origin, a size and a root");
  }
  CheckpointBody body;
  if (lines[0].empty()) return absl::InvalidArgumentError("the checkpoint's origin is empty");
  body.origin = std::string(lines[0]);
  const absl::string_view size = lines[1];
  if (size.empty() || (size.size() > 1 && size[0] == '0') ||
      !std::all_of(size.begin(), size.end(), absl::ascii_isdigit) ||
      !absl::SimpleAtoi(size, &body.tree_size)) {
    return absl::InvalidArgumentError(absl::StrCat("not a checkpoint tree size: '", size, "'"));
  }
  std::string root;
  if (!absl::Base64Unescape(lines[2], &root) || absl::Base64Escape(root) != lines[2] ||
      !HashFromBytes(root, &body.root)) {
    return absl::InvalidArgumentError(
        absl::StrCat("not a checkpoint root (base64 of 32 bytes): '", lines[2], "'"));
  }
  for (size_t i = 3; i < lines.size(); ++i) {
    if (lines[i].empty()) return absl::InvalidArgumentError("an empty checkpoint extension line");
    body.extensions.emplace_back(lines[i]);
  }
  return body;
}

}  // namespace arbiter::ledger
