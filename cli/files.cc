#include "cli/files.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "absl/strings/str_cat.h"

namespace arbiter::cli {

absl::StatusOr<std::string> ReadInput(const std::string& path) {
  std::stringstream text;
  if (path == "-") {
    text << std::cin.rdbuf();
    if (std::cin.bad()) return absl::DataLossError("cannot read stdin");
    return text.str();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError("cannot open the file");
  text << in.rdbuf();
  if (in.bad()) return absl::DataLossError("cannot read the file");
  return text.str();
}

bool ReadsStdinTwice(const std::vector<std::string>& paths) {
  return std::count(paths.begin(), paths.end(), "-") > 1;
}

absl::Status WriteFileAtomically(const std::string& path, std::string_view content) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream file(tmp, std::ios::binary | std::ios::trunc);
    if (!file || !file.write(content.data(), static_cast<std::streamsize>(content.size())) ||
        !file.flush()) {
      return absl::UnavailableError(absl::StrCat("cannot write ", tmp));
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) return absl::UnavailableError(absl::StrCat("cannot write ", path, ": ", ec.message()));
  return absl::OkStatus();
}

}  // namespace arbiter::cli
