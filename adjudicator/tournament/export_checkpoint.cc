#include "adjudicator/tournament/export_checkpoint.h"

#include <cstdint>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "google/protobuf/util/json_util.h"

namespace arbiter::tournament {
namespace {

using v1::ExportTournamentRequest;

constexpr absl::string_view kWords = "derived from ";
constexpr absl::string_view kStreamPrefix = "tournaments/";

// The header's encoding of a stream name or an origin (export_checkpoint.h).
std::string Encode(absl::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = s[i];
    const bool dash_run = c == '-' && (i + 1 == s.size() || (i > 0 && s[i - 1] == '-'));
    if (c <= 0x20 || c >= 0x7f || c == '%' || c == ',' || c == '"' || dash_run) {
      absl::StrAppend(&out, absl::StrFormat("%%%02X", c));
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out;
}

absl::StatusOr<std::string> Decode(absl::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out.push_back(s[i]);
      continue;
    }
    if (i + 2 >= s.size() || !absl::ascii_isxdigit(s[i + 1]) || !absl::ascii_isxdigit(s[i + 2])) {
      return absl::InvalidArgumentError(absl::StrCat("a bad %XX escape in '", s, "'"));
    }
    out += absl::HexStringToBytes(s.substr(i + 1, 2));
    i += 2;
  }
  return out;
}

// "tournaments/ID at checkpoint ORIGIN SIZE ROOT" into `out`.
absl::Status ParseWords(absl::string_view words, NamedRecord* out) {
  const std::vector<absl::string_view> t = absl::StrSplit(words, ' ');
  auto bad = [&](absl::string_view why) {
    return absl::InvalidArgumentError(
        absl::StrCat("the file's \"derived from\" words are malformed (", why, "): ", words));
  };
  if (t.size() != 6 || t[1] != "at" || t[2] != "checkpoint") {
    return bad("not \"tournaments/ID at checkpoint ORIGIN SIZE ROOT\"");
  }
  absl::StatusOr<std::string> stream = Decode(t[0]);
  absl::StatusOr<std::string> origin = Decode(t[3]);
  if (!stream.ok() || !origin.ok()) return bad("an escape");
  absl::string_view id = *stream;
  if (!absl::ConsumePrefix(&id, kStreamPrefix) || id.empty()) return bad("no tournaments/ID");
  uint64_t size = 0;
  if (!absl::SimpleAtoi(t[4], &size) || size == 0) return bad("the size is not a number");
  std::string root;
  if (!absl::Base64Unescape(t[5], &root) || root.size() != 32) {
    return bad("the root is not the base64 of 32 bytes");
  }
  out->tournament_id = std::string(id);
  out->checkpoint.set_origin(*origin);
  out->checkpoint.set_tree_size(size);
  out->checkpoint.set_root_hash(std::string(t[5]));
  return absl::OkStatus();
}

absl::StatusOr<NamedRecord> ReadJson(absl::string_view file) {
  v1::StandingsReport report;
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = true;
  if (!google::protobuf::util::JsonStringToMessage(std::string(file), &report, options).ok()) {
    return absl::InvalidArgumentError("a JSON file that is not a tournament's standings report");
  }
  absl::string_view id = report.tournament();
  if (!report.has_checkpoint() || !absl::ConsumePrefix(&id, kStreamPrefix)) {
    return absl::InvalidArgumentError(
        "the JSON report names no checkpoint (no \"checkpoint\" field): not an export that "
        "names the record it came from");
  }
  NamedRecord out;
  out.format = ExportTournamentRequest::JSON;
  out.tournament_id = std::string(id);
  out.checkpoint = report.checkpoint();
  return out;
}

// The words of the CSV's last row, whose last field is `derived_from`.
absl::StatusOr<NamedRecord> ReadCsv(const std::vector<absl::string_view>& lines) {
  absl::string_view last;
  for (size_t i = lines.size(); i-- > 1;) {
    if (!absl::StripTrailingAsciiWhitespace(lines[i]).empty()) {
      last = absl::StripTrailingAsciiWhitespace(lines[i]);
      break;
    }
  }
  if (last.empty()) {
    return absl::InvalidArgumentError("the CSV file has no row to name the record it came from");
  }
  NamedRecord out;
  out.format = ExportTournamentRequest::CSV;
  if (absl::Status s = ParseWords(last.substr(last.rfind(',') + 1), &out); !s.ok()) return s;
  return out;
}

}  // namespace

std::string RecordWords(const v1::StandingsReport& report) {
  const v1::ExportCheckpoint& c = report.checkpoint();
  return absl::StrCat(Encode(report.tournament()), " at checkpoint ", Encode(c.origin()), " ",
                      c.tree_size(), " ", c.root_hash());
}

std::string DerivedFromWords(const v1::StandingsReport& report) {
  return absl::StrCat(kWords, RecordWords(report));
}

absl::StatusOr<NamedRecord> ReadNamedRecord(absl::string_view file) {
  if (absl::StartsWith(absl::StripLeadingAsciiWhitespace(file), "{")) return ReadJson(file);
  const std::vector<absl::string_view> lines = absl::StrSplit(file, '\n');
  absl::string_view head = absl::StripTrailingAsciiWhitespace(lines[0]);
  if (absl::StartsWith(head, "rank,id,name,") &&
      absl::EndsWith(head, absl::StrCat(",", kDerivedFromColumn))) {
    return ReadCsv(lines);
  }
  struct Syntax {
    ExportTournamentRequest::Format format;
    absl::string_view prefix, suffix;
  };
  constexpr Syntax kSyntaxes[] = {
      {ExportTournamentRequest::EGD_H9, "; ", ""},
      {ExportTournamentRequest::AGA, "# ", ""},
      {ExportTournamentRequest::OPENGOTHA_XML, "<!-- ", " -->"},
  };
  for (absl::string_view line : lines) {
    line = absl::StripTrailingAsciiWhitespace(line);
    for (const Syntax& s : kSyntaxes) {
      absl::string_view words = line;
      if (!absl::ConsumePrefix(&words, s.prefix) || !absl::ConsumePrefix(&words, kWords) ||
          !absl::ConsumeSuffix(&words, s.suffix)) {
        continue;
      }
      NamedRecord out;
      out.format = s.format;
      if (absl::Status st = ParseWords(words, &out); !st.ok()) return st;
      return out;
    }
  }
  return absl::InvalidArgumentError(
      "the file names no record it came from (no \"derived from tournaments/ID at checkpoint "
      "ORIGIN SIZE ROOT\" line or column): not an .h9, AGA, OpenGotha, CSV or JSON export of "
      "this release");
}

std::optional<LineDifference> FirstDifference(absl::string_view ours, absl::string_view theirs) {
  const std::vector<absl::string_view> a = absl::StrSplit(ours, '\n');
  const std::vector<absl::string_view> b = absl::StrSplit(theirs, '\n');
  for (size_t i = 0; i < a.size() || i < b.size(); ++i) {
    absl::string_view x = i < a.size() ? a[i] : "";
    absl::string_view y = i < b.size() ? b[i] : "";
    if (x != y || (i < a.size()) != (i < b.size())) {
      return LineDifference{static_cast<int>(i + 1), std::string(absl::StripSuffix(x, "\r")),
                            std::string(absl::StripSuffix(y, "\r"))};
    }
  }
  return std::nullopt;
}

}  // namespace arbiter::tournament
