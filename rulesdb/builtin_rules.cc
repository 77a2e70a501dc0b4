#include "rulesdb/builtin_rules.h"

#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "proto/canonical/sha256.h"
#include "rulesdb/embedded_data.h"

namespace arbiter {
namespace {

// Decodes the build's validated data (embedded_data.h). A message that does
// not decode means a damaged binary: reported, naming it.
template <typename T>
absl::Status Decode(std::span<const EmbeddedMessage> embedded, std::vector<T>& out) {
  out.resize(embedded.size());
  for (size_t i = 0; i < embedded.size(); ++i) {
    if (!out[i].ParseFromArray(embedded[i].data, static_cast<int>(embedded[i].size))) {
      return absl::DataLossError(
          absl::StrCat("the built-in rules data of ", embedded[i].name, " does not decode"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<RulesData> DecodeEmbedded() {
  RulesData data;
  if (absl::Status s = Decode(EmbeddedRulesets(), data.rulesets); !s.ok()) return s;
  if (absl::Status s = Decode(EmbeddedSupplements(), data.supplements); !s.ok()) return s;
  return data;
}

// Every built-in ruleset version by its content hash, computed once. The
// embedded bytes are each version's canonical encoding, so their SHA-256 is
// its ContentHash (content_hash.h) without encoding it again.
absl::StatusOr<const absl::flat_hash_map<std::string, const v1::Ruleset*>*> ByHash() {
  static const auto* const table =
      new absl::StatusOr<absl::flat_hash_map<std::string, const v1::Ruleset*>>(
          []() -> absl::StatusOr<absl::flat_hash_map<std::string, const v1::Ruleset*>> {
            absl::StatusOr<const RulesData*> data = BuiltinRulesData();
            if (!data.ok()) return data.status();
            const std::span<const EmbeddedMessage> embedded = EmbeddedRulesets();
            absl::flat_hash_map<std::string, const v1::Ruleset*> out;
            for (size_t i = 0; i < embedded.size(); ++i) {
              const absl::string_view bytes(reinterpret_cast<const char*>(embedded[i].data),
                                            embedded[i].size);
              out[Sha256Hex(bytes)] = &(*data)->rulesets[i];
            }
            return out;
          }());
  if (!table->ok()) return table->status();
  return &**table;
}

absl::StatusOr<Rules> WithSupplement(const v1::Ruleset& ruleset, std::string_view supplement_id) {
  if (supplement_id.empty()) return Rules::FromProto(ruleset);
  absl::StatusOr<const v1::Supplement*> supplement = BuiltinSupplement(supplement_id);
  if (!supplement.ok()) return supplement.status();
  if ((*supplement)->base_ruleset() != ruleset.id()) {
    return absl::InvalidArgumentError(
        absl::StrCat("supplement \"", std::string(supplement_id), "\" is for ruleset \"",
                     (*supplement)->base_ruleset(), "\", not \"", ruleset.id(), "\""));
  }
  return Rules::FromProto(ruleset, *supplement);
}

// Rules are immutable and cheap to copy, so each combination is built (and
// hashed) once per process. `key` names the ruleset version uniquely.
absl::StatusOr<Rules> Cached(const std::string& key,
                             const std::function<absl::StatusOr<Rules>()>& build) {
  static absl::Mutex mu(absl::kConstInit);
  static auto* const cache = new absl::flat_hash_map<std::string, Rules>();
  absl::MutexLock lock(&mu);
  if (auto it = cache->find(key); it != cache->end()) return it->second;
  absl::StatusOr<Rules> rules = build();
  if (rules.ok()) cache->emplace(key, *rules);
  return rules;
}

}  // namespace

absl::StatusOr<const RulesData*> BuiltinRulesData() {
  // Decoded once, thread-safely (a function-local static), and never freed.
  static const auto* const data = new absl::StatusOr<RulesData>(DecodeEmbedded());
  if (!data->ok()) return data->status();
  return &**data;
}

namespace {

// The entry of `entries` with this id; NOT_FOUND naming the known ones.
template <typename T>
absl::StatusOr<const T*> FindById(const std::vector<T>& entries, const char* kind,
                                  std::string_view id) {
  std::vector<std::string> known;
  for (const T& entry : entries) {
    if (entry.id() == id) return &entry;
    known.push_back(entry.id());
  }
  return absl::NotFoundError(absl::StrCat("unknown ", kind, " \"", std::string(id),
                                          "\" (known: ", absl::StrJoin(known, ", "), ")"));
}

}  // namespace

absl::StatusOr<const v1::Ruleset*> BuiltinRuleset(std::string_view id) {
  return BuiltinRulesetVersion(id, "");
}

absl::StatusOr<const v1::Ruleset*> BuiltinRulesetVersion(std::string_view id,
                                                         std::string_view version) {
  absl::StatusOr<const RulesData*> data = BuiltinRulesData();
  if (!data.ok()) return data.status();
  std::vector<std::string> ids, versions;
  const v1::Ruleset* found = nullptr;
  for (const v1::Ruleset& r : (*data)->rulesets) {  // versions in ascending order
    if (ids.empty() || ids.back() != r.id()) ids.push_back(r.id());
    if (r.id() != id) continue;
    versions.push_back(r.version());
    if (version.empty() || r.version() == version) found = &r;
  }
  if (found != nullptr) return found;
  if (versions.empty()) {
    return absl::NotFoundError(absl::StrCat("unknown ruleset \"", std::string(id),
                                            "\" (known: ", absl::StrJoin(ids, ", "), ")"));
  }
  return absl::NotFoundError(absl::StrCat("ruleset ", std::string(id), " has no version \"",
                                          std::string(version),
                                          "\" (known: ", absl::StrJoin(versions, ", "), ")"));
}

absl::StatusOr<const v1::Ruleset*> BuiltinRulesetByHash(std::string_view hash) {
  absl::StatusOr<const absl::flat_hash_map<std::string, const v1::Ruleset*>*> table = ByHash();
  if (!table.ok()) return table.status();
  auto it = (*table)->find(std::string(hash));
  if (it == (*table)->end()) {
    return absl::NotFoundError(
        absl::StrCat("no built-in ruleset version has content hash ", std::string(hash)));
  }
  return it->second;
}

absl::StatusOr<std::vector<const v1::Ruleset*>> LatestBuiltinRulesets() {
  absl::StatusOr<const RulesData*> data = BuiltinRulesData();
  if (!data.ok()) return data.status();
  std::vector<const v1::Ruleset*> latest;
  for (const v1::Ruleset& r : (*data)->rulesets) {  // ordered by id, then version
    if (!latest.empty() && latest.back()->id() == r.id()) {
      latest.back() = &r;
    } else {
      latest.push_back(&r);
    }
  }
  return latest;
}

absl::StatusOr<const v1::Supplement*> BuiltinSupplement(std::string_view id) {
  absl::StatusOr<const RulesData*> data = BuiltinRulesData();
  if (!data.ok()) return data.status();
  return FindById((*data)->supplements, "supplement", id);
}

absl::StatusOr<Rules> LoadRules(std::string_view ruleset_id, std::string_view supplement_id) {
  return LoadRulesVersion(ruleset_id, "", supplement_id);
}

absl::StatusOr<Rules> LoadRulesVersion(std::string_view ruleset_id, std::string_view version,
                                       std::string_view supplement_id) {
  absl::StatusOr<const v1::Ruleset*> ruleset = BuiltinRulesetVersion(ruleset_id, version);
  if (!ruleset.ok()) return ruleset.status();
  const v1::Ruleset& r = **ruleset;
  return Cached(absl::StrCat(r.id(), "@", r.version(), "+", std::string(supplement_id)),
                [&] { return WithSupplement(r, supplement_id); });
}

absl::StatusOr<Rules> LoadRulesByHash(std::string_view ruleset_hash,
                                      std::string_view supplement_id) {
  absl::StatusOr<const v1::Ruleset*> ruleset = BuiltinRulesetByHash(ruleset_hash);
  if (!ruleset.ok()) return ruleset.status();
  return LoadRulesVersion((*ruleset)->id(), (*ruleset)->version(), supplement_id);
}

absl::StatusOr<Rules> LoadRulesFor(const v1::GameCreated& created) {
  return LoadRulesVersion(created.ruleset().empty() ? kDefaultRuleset : created.ruleset(),
                          created.ruleset_version(), created.supplement());
}

absl::StatusOr<Rules> LoadRulesSpec(std::string_view spec) {
  std::string_view supplement;
  if (const size_t plus = spec.find('+'); plus != std::string_view::npos) {
    supplement = spec.substr(plus + 1);
    spec = spec.substr(0, plus);
  }
  std::string_view version;
  if (const size_t at = spec.find('@'); at != std::string_view::npos) {
    version = spec.substr(at + 1);
    spec = spec.substr(0, at);
    if (version.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("\"", std::string(spec), "@\": the version after '@' is missing"));
    }
  }
  return LoadRulesVersion(spec, version, supplement);
}

}  // namespace arbiter
