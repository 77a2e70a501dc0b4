#include "rulesdb/builtin_rules.h"

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "rulesdb/embedded_data.h"

namespace arbiter {
namespace {

absl::StatusOr<RulesData> ParseEmbedded() {
  std::vector<DataFile> files;
  for (const EmbeddedFile& f : EmbeddedRulesFiles()) {
    files.push_back({f.path, std::string(reinterpret_cast<const char*>(f.data), f.size)});
  }
  return ParseRulesData(std::move(files));
}

}  // namespace

absl::StatusOr<const RulesData*> BuiltinRulesData() {
  // Parsed once, thread-safely (a function-local static), and never freed.
  static const auto* const data = new absl::StatusOr<RulesData>(ParseEmbedded());
  if (!data->ok()) return data->status();
  return &**data;
}

absl::StatusOr<const v1::Ruleset*> BuiltinRuleset(std::string_view id) {
  absl::StatusOr<const RulesData*> data = BuiltinRulesData();
  if (!data.ok()) return data.status();
  std::vector<std::string> known;
  for (const v1::Ruleset& r : (*data)->rulesets) {
    if (r.id() == id) return &r;
    known.push_back(r.id());
  }
  return absl::NotFoundError(absl::StrCat("unknown ruleset \"", std::string(id), "\" (known: ",
                                          absl::StrJoin(known, ", "), ")"));
}

absl::StatusOr<const v1::Supplement*> BuiltinSupplement(std::string_view id) {
  absl::StatusOr<const RulesData*> data = BuiltinRulesData();
  if (!data.ok()) return data.status();
  std::vector<std::string> known;
  for (const v1::Supplement& s : (*data)->supplements) {
    if (s.id() == id) return &s;
    known.push_back(s.id());
  }
  return absl::NotFoundError(absl::StrCat("unknown supplement \"", std::string(id), "\" (known: ",
                                          absl::StrJoin(known, ", "), ")"));
}

namespace {

absl::StatusOr<Rules> BuildRules(std::string_view ruleset_id, std::string_view supplement_id) {
  absl::StatusOr<const v1::Ruleset*> ruleset = BuiltinRuleset(ruleset_id);
  if (!ruleset.ok()) return ruleset.status();
  if (supplement_id.empty()) return Rules::FromProto(**ruleset);
  absl::StatusOr<const v1::Supplement*> supplement = BuiltinSupplement(supplement_id);
  if (!supplement.ok()) return supplement.status();
  if ((*supplement)->base_ruleset() != ruleset_id) {
    return absl::InvalidArgumentError(absl::StrCat("supplement \"", std::string(supplement_id),
                                                   "\" is for ruleset \"",
                                                   (*supplement)->base_ruleset(), "\", not \"",
                                                   std::string(ruleset_id), "\""));
  }
  return Rules::FromProto(**ruleset, *supplement);
}

}  // namespace

absl::StatusOr<Rules> LoadRules(std::string_view ruleset_id, std::string_view supplement_id) {
  // Rules are immutable and cheap to copy, so each combination is built (and
  // hashed) once per process.
  static absl::Mutex mu(absl::kConstInit);
  static auto* const cache = new absl::flat_hash_map<std::string, Rules>();
  const std::string key = std::string(ruleset_id) + "+" + std::string(supplement_id);
  absl::MutexLock lock(&mu);
  if (auto it = cache->find(key); it != cache->end()) return it->second;
  absl::StatusOr<Rules> rules = BuildRules(ruleset_id, supplement_id);
  if (rules.ok()) cache->emplace(key, *rules);
  return rules;
}

}  // namespace arbiter
