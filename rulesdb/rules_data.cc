#include "rulesdb/rules_data.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "rulesdb/content_hash.h"
#include "rulesdb/rules_text.h"
#include "rulesdb/validate.h"

namespace arbiter {
namespace {

constexpr char kSupplementDir[] = "supplements";

absl::Status Prefixed(const std::string& prefix, const absl::Status& status) {
  return absl::Status(status.code(), absl::StrCat(prefix, ": ", status.message()));
}

}  // namespace

absl::StatusOr<RulesData> ParseRulesData(std::vector<DataFile> files) {
  // Path order fixes the order of merged repeated fields, hence the hash.
  std::sort(files.begin(), files.end(),
            [](const DataFile& a, const DataFile& b) { return a.path < b.path; });
  std::map<std::string, v1::Ruleset> rulesets;  // by directory
  std::map<std::string, std::string> supplement_files;
  RulesData data;
  std::set<std::string> supplement_ids;
  for (const DataFile& file : files) {
    const size_t slash = file.path.find('/');
    if (slash == std::string::npos || file.path.find('/', slash + 1) != std::string::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat(file.path, ": data files live at <ruleset-id>/NAME or supplements/NAME"));
    }
    const std::string dir = file.path.substr(0, slash);
    if (dir == kSupplementDir) {
      v1::Supplement supplement;
      if (absl::Status st = MergeRulesText(file.path, file.text, &supplement); !st.ok()) return st;
      if (!supplement_ids.insert(supplement.id()).second) {
        return absl::InvalidArgumentError(
            absl::StrCat(file.path, ": supplement id \"", supplement.id(), "\" is used twice"));
      }
      supplement_files[supplement.id()] = file.path;
      data.supplements.push_back(std::move(supplement));
    } else if (absl::Status st = MergeRulesText(file.path, file.text, &rulesets[dir]); !st.ok()) {
      return st;
    }
  }
  for (auto& [dir, ruleset] : rulesets) {
    if (ruleset.id() != dir) {
      return absl::InvalidArgumentError(absl::StrCat(
          dir, "/: the ruleset's id is \"", ruleset.id(), "\"; its directory must match"));
    }
    if (absl::Status st = ValidateRuleset(ruleset); !st.ok()) return Prefixed(dir + "/", st);
    data.rulesets.push_back(std::move(ruleset));
  }
  std::sort(data.supplements.begin(), data.supplements.end(),
            [](const v1::Supplement& a, const v1::Supplement& b) { return a.id() < b.id(); });
  for (const v1::Supplement& s : data.supplements) {
    auto base = std::find_if(data.rulesets.begin(), data.rulesets.end(),
                             [&](const v1::Ruleset& r) { return r.id() == s.base_ruleset(); });
    const std::string& path = supplement_files[s.id()];
    if (base == data.rulesets.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": unknown base ruleset \"", s.base_ruleset(), "\""));
    }
    if (absl::Status st = ValidateSupplement(s, *base); !st.ok()) return Prefixed(path, st);
  }
  return data;
}

absl::Status CheckPublished(const RulesData& data, std::string_view manifest,
                            const std::string& name) {
  std::map<std::string, std::string> published;  // "kind id version" -> hash
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(absl::string_view(manifest.data(), manifest.size()),
                                               '\n')) {
    ++line_number;
    line = line.substr(0, line.find('#'));
    std::vector<std::string> words = absl::StrSplit(line, ' ', absl::SkipWhitespace());
    if (words.empty()) continue;
    if (words.size() != 4 || (words[0] != "ruleset" && words[0] != "supplement") ||
        words[3].size() != 64) {
      return absl::InvalidArgumentError(absl::StrCat(
          name, ":", line_number, ": expected \"ruleset|supplement ID VERSION SHA256\""));
    }
    published[absl::StrCat(words[0], " ", words[1], " ", words[2])] = words[3];
  }
  auto check = [&](const std::string& kind, const google::protobuf::Message& m,
                   const std::string& id, const std::string& version) -> absl::Status {
    absl::StatusOr<std::string> hash = ContentHash(m);
    if (!hash.ok()) return hash.status();
    const std::string key = absl::StrCat(kind, " ", id, " ", version);
    auto it = published.find(key);
    if (it == published.end()) {
      return absl::FailedPreconditionError(absl::StrCat(
          name, ": ", key, " is not published; add the line \"", key, " ", *hash, "\""));
    }
    if (it->second != *hash) {
      return absl::FailedPreconditionError(absl::StrCat(
          name, ": ", key, " is published with hash ", it->second, " but its data now hashes to ",
          *hash, ". Published versions are immutable: give the change a new version."));
    }
    return absl::OkStatus();
  };
  for (const v1::Ruleset& r : data.rulesets) {
    if (absl::Status st = check("ruleset", r, r.id(), r.version()); !st.ok()) return st;
  }
  for (const v1::Supplement& s : data.supplements) {
    if (absl::Status st = check("supplement", s, s.id(), s.version()); !st.ok()) return st;
  }
  return absl::OkStatus();
}

}  // namespace arbiter
