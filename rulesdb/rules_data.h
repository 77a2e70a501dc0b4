// RulesData: the rulesets and supplements in a set of data files.
//
// Layout, relative to rulesdb/data: `<ruleset-id>/*.textproto` are the parts
// of one v1::Ruleset, merged in path order (the header, parameters and
// sanctionings in ruleset.textproto, the articles in articles.textproto);
// `supplements/*.textproto` are one v1::Supplement each. The same parsing and
// validation serve the build step that embeds the files and the binary that
// loads them, so a bad file fails the build with its name, line and column.
#ifndef ARBITER_RULESDB_RULES_DATA_H_
#define ARBITER_RULESDB_RULES_DATA_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/rules.pb.h"

namespace arbiter {

struct DataFile {
  std::string path;  // relative to the data root, '/'-separated
  std::string text;
};

struct RulesData {
  std::vector<v1::Ruleset> rulesets;       // ordered by id
  std::vector<v1::Supplement> supplements;  // ordered by id
};

// Parses and validates every file; the first error names its file (and line
// and column for syntax errors). Ids must be unique, a ruleset's directory
// must be its id, and every supplement's base must be among the rulesets.
absl::StatusOr<RulesData> ParseRulesData(std::vector<DataFile> files);

// The published versions: rulesdb/data/PUBLISHED has one line per version,
// "ruleset|supplement ID VERSION SHA256" ('#' starts a comment). A published
// version never changes, so every ruleset and supplement in `data` must be
// listed, with its current hash; a changed file must get a new version (and
// a new line). `name` is the manifest's path, for the messages.
absl::Status CheckPublished(const RulesData& data, std::string_view manifest,
                            const std::string& name);

}  // namespace arbiter

#endif  // ARBITER_RULESDB_RULES_DATA_H_
