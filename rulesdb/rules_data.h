// RulesData: the rulesets and supplements in a set of data files.
//
// Layout, relative to rulesdb/data: `<ruleset-id>/<version>/*.textproto` are
// the parts of one version of a v1::Ruleset, merged in path order (the
// header, parameters and sanctionings in ruleset.textproto, the articles in
// articles.textproto); `supplements/*.textproto` are one v1::Supplement each.
// Every published version stays in the data (a game pinned to it is judged
// under it for ever), so one ruleset id has several directories. The same parsing and
// validation serve the build step that embeds the files and the binary that
// loads them, so a bad file fails the build with its name, line and column.
#ifndef ARBITER_RULESDB_RULES_DATA_H_
#define ARBITER_RULESDB_RULES_DATA_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/rules.pb.h"

namespace arbiter {

struct DataFile {
  std::string path;  // relative to the data root, '/'-separated
  std::string text;
};

struct RulesData {
  // Ordered by id, then by version (CompareVersions): the last of an id is
  // its latest version.
  std::vector<v1::Ruleset> rulesets;
  std::vector<v1::Supplement> supplements;  // ordered by id
};

// Orders version strings part by part between the dots, numerically where
// both parts are numbers ("2002.2" < "2002.10"), else as text. Returns <0, 0
// or >0.
int CompareVersions(std::string_view a, std::string_view b);

// Parses and validates every file; the first error names its file (and line
// and column for syntax errors). A ruleset's directories must be its id and
// version, an id and version appear once, and every supplement's base must
// be among the rulesets (it is validated against every version of it, since
// a game may pin any).
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
