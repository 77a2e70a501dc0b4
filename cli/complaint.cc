#include "cli/complaint.h"

#include <cstdio>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace arbiter::cli {

std::string OneLine(absl::string_view text) {
  text = absl::StripAsciiWhitespace(text);
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\n' && text[i] != '\r') {
      out.push_back(text[i]);
      continue;
    }
    while (!out.empty() && (out.back() == ' ' || out.back() == '\t')) out.pop_back();
    while (i + 1 < text.size() && absl::ascii_isspace(static_cast<unsigned char>(text[i + 1]))) {
      ++i;
    }
    out += "; ";
  }
  return out;
}

int Complain(absl::string_view command, absl::string_view what, int exit) {
  const std::string line = command.empty()
                               ? absl::StrCat("arbiter: ", OneLine(what), "\n")
                               : absl::StrCat("arbiter ", command, ": ", OneLine(what), "\n");
  std::fputs(line.c_str(), stderr);
  return exit;
}

}  // namespace arbiter::cli
