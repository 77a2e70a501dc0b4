#include "rulesdb/rules_data.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/numbers.h"
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

int CompareVersions(std::string_view a, std::string_view b) {
  const std::vector<absl::string_view> xs =
      absl::StrSplit(absl::string_view(a.data(), a.size()), '.');
  const std::vector<absl::string_view> ys =
      absl::StrSplit(absl::string_view(b.data(), b.size()), '.');
  for (size_t i = 0; i < xs.size() && i < ys.size(); ++i) {
    uint64_t x = 0, y = 0;
    if (absl::SimpleAtoi(xs[i], &x) && absl::SimpleAtoi(ys[i], &y)) {
      if (x != y) return x < y ? -1 : 1;
    } else if (const int c = xs[i].compare(ys[i]); c != 0) {
      return c;
    }
  }
  return xs.size() == ys.size() ? 0 : xs.size() < ys.size() ? -1 : 1;
}

namespace {

// Sorts the rulesets by id, then version (CompareVersions); two versions of
// a ruleset that compare equal ("2.0" and "2.00") are one version given
// twice, and refused.
absl::Status SortVersions(std::vector<v1::Ruleset>& rulesets) {
  std::sort(rulesets.begin(), rulesets.end(), [](const v1::Ruleset& a, const v1::Ruleset& b) {
    return a.id() != b.id() ? a.id() < b.id() : CompareVersions(a.version(), b.version()) < 0;
  });
  for (size_t i = 1; i < rulesets.size(); ++i) {
    const v1::Ruleset& a = rulesets[i - 1];
    const v1::Ruleset& b = rulesets[i];
    if (a.id() == b.id() && CompareVersions(a.version(), b.version()) == 0) {
      return absl::InvalidArgumentError(absl::StrCat("ruleset ", a.id(), " versions \"",
                                                     a.version(), "\" and \"", b.version(),
                                                     "\" are the same version"));
    }
  }
  return absl::OkStatus();
}

// Every supplement applies to each version of the ruleset it is based on
// (ValidateSupplement), and that ruleset is in the data. `files` names each
// supplement's file for the errors.
absl::Status CheckSupplementBases(const RulesData& data,
                                  const std::map<std::string, std::string>& files) {
  for (const v1::Supplement& s : data.supplements) {
    const std::string& path = files.at(s.id());
    bool based = false;
    for (const v1::Ruleset& base : data.rulesets) {
      if (base.id() != s.base_ruleset()) continue;
      based = true;
      if (absl::Status st = ValidateSupplement(s, base); !st.ok()) {
        return Prefixed(absl::StrCat(path, " (on ", base.id(), " ", base.version(), ")"), st);
      }
    }
    if (!based) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": unknown base ruleset \"", s.base_ruleset(), "\""));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<RulesData> ParseRulesData(std::vector<DataFile> files) {
  // Path order fixes the order of merged repeated fields, hence the hash.
  std::sort(files.begin(), files.end(),
            [](const DataFile& a, const DataFile& b) { return a.path < b.path; });
  std::map<std::string, v1::Ruleset> rulesets;  // by "<id>/<version>" directory
  std::map<std::string, std::string> supplement_files;
  RulesData data;
  std::set<std::string> supplement_ids;
  for (const DataFile& file : files) {
    const std::vector<std::string> parts = absl::StrSplit(file.path, '/');
    const bool supplement = parts.size() == 2 && parts[0] == kSupplementDir;
    if (!supplement && (parts.size() != 3 || parts[0] == kSupplementDir)) {
      return absl::InvalidArgumentError(absl::StrCat(
          file.path, ": data files live at <ruleset-id>/<version>/NAME or supplements/NAME"));
    }
    if (supplement) {
      v1::Supplement s;
      if (absl::Status st = MergeRulesText(file.path, file.text, &s); !st.ok()) return st;
      if (!supplement_ids.insert(s.id()).second) {
        return absl::InvalidArgumentError(
            absl::StrCat(file.path, ": supplement id \"", s.id(), "\" is used twice"));
      }
      supplement_files[s.id()] = file.path;
      data.supplements.push_back(std::move(s));
    } else if (absl::Status st =
                   MergeRulesText(file.path, file.text, &rulesets[parts[0] + "/" + parts[1]]);
               !st.ok()) {
      return st;
    }
  }
  for (auto& [dir, ruleset] : rulesets) {
    if (dir != ruleset.id() + "/" + ruleset.version()) {
      return absl::InvalidArgumentError(absl::StrCat(dir, "/: the ruleset's id and version are \"",
                                                     ruleset.id(), "\" and \"", ruleset.version(),
                                                     "\"; its directories must match"));
    }
    if (absl::Status st = ValidateRuleset(ruleset); !st.ok()) return Prefixed(dir + "/", st);
    data.rulesets.push_back(std::move(ruleset));
  }
  if (absl::Status st = SortVersions(data.rulesets); !st.ok()) return st;
  std::sort(data.supplements.begin(), data.supplements.end(),
            [](const v1::Supplement& a, const v1::Supplement& b) { return a.id() < b.id(); });
  if (absl::Status st = CheckSupplementBases(data, supplement_files); !st.ok()) return st;
  return data;
}

absl::Status CheckPublished(const RulesData& data, std::string_view manifest,
                            const std::string& name) {
  std::map<std::string, std::string> published;  // "kind id version" -> hash
  int line_number = 0;
  for (absl::string_view line :
       absl::StrSplit(absl::string_view(manifest.data(), manifest.size()), '\n')) {
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
    const std::string hash = ContentHash(m);
    const std::string key = absl::StrCat(kind, " ", id, " ", version);
    auto it = published.find(key);
    if (it == published.end()) {
      return absl::FailedPreconditionError(absl::StrCat(
          name, ": ", key, " is not published; add the line \"", key, " ", hash, "\""));
    }
    if (it->second != hash) {
      return absl::FailedPreconditionError(absl::StrCat(
          name, ": ", key, " is published with hash ", it->second, " but its data now hashes to ",
          hash, ". Published versions are immutable: give the change a new version."));
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
