// `arbiter rules`: look up the rules database.
//
//   arbiter rules list [--ruleset ID] [--json]   every clause id
//   arbiter rules show CLAUSE [--json]           text, sanctions, interpretation
//   arbiter rules diff A B                       what changes from ruleset A to B
//                                                (either may be RULESET[@VERSION][+SUPPLEMENT];
//                                                without a version, the latest)
//   arbiter rules hash ID                        a ruleset's or supplement's SHA-256
//   arbiter rules publish DB                     publish the built-ins to a catalog
//
// Unknown ids and bad usage exit 2; an unavailable catalog exits 3
// (exit_codes.h).
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli/commands.h"
#include "cli/complaint.h"
#include "cli/exit_codes.h"
#include "google/protobuf/struct.pb.h"  // ListValue: a bare JSON array
#include "google/protobuf/util/json_util.h"
#include "ledger/rule_catalog.h"
#include "rulesdb/builtin_rules.h"
#include "rulesdb/rules.h"
#include "rulesdb/ruleset_diff.h"

namespace arbiter::cli {
namespace {

constexpr FlagSpec kListFlags[] = {
    {"ruleset", "ID", "only this ruleset's (cn-2002, cn-1988)"},
    {"json", "", "print a JSON array of the ids"},
};
constexpr CommandSpec kRulesList = {
    .name = "rules list",
    .summary = "every article and clause id, with its title",
    .flags = kListFlags,
};
constexpr FlagSpec kRulesShowFlags[] = {
    {"json", "", "print an arbiter.v1.ClauseReport"},
};
constexpr CommandSpec kRulesShow = {
    .name = "rules show",
    .positionals = "CLAUSE",
    .summary = "a clause or article: its text in Chinese and English, interpretation, sanctions",
    .min_positionals = 1,
    .max_positionals = 1,
    .flags = kRulesShowFlags,
};
constexpr CommandSpec kDiff = {
    .name = "rules diff",
    .positionals = "RULESET_A[@VERSION][+SUPPLEMENT] RULESET_B[@VERSION][+SUPPLEMENT]",
    .summary = "what changes from one ruleset (with a supplement) to another",
    .min_positionals = 2,
    .max_positionals = 2,
};
constexpr CommandSpec kHash = {
    .name = "rules hash",
    .positionals = "RULESET[@VERSION]|SUPPLEMENT",
    .summary = "the SHA-256 of a ruleset's or a supplement's content",
    .min_positionals = 1,
    .max_positionals = 1,
};
constexpr CommandSpec kPublish = {
    .name = "rules publish",
    .positionals = "DB",
    .summary = "publish the built-in rulesets and supplements to a catalog database",
    .min_positionals = 1,
    .max_positionals = 1,
};

int RulesFailed(int code, const std::string& why) { return Complain("rules", why, code); }

int RulesFailed(const absl::Status& status) {
  return RulesFailed(ExitCodeOf(status), std::string(status.message()));
}

int PrintJson(const google::protobuf::Message& message, bool pretty) {
  google::protobuf::util::JsonPrintOptions options;
  options.add_whitespace = pretty;
  std::string out;
  if (const auto s = google::protobuf::util::MessageToJsonString(message, &out, options); !s.ok()) {
    return RulesFailed(kExitUnavailable, "cannot render JSON: " + std::string(s.message()));
  }
  std::printf("%s\n", out.c_str());
  return 0;
}

std::string RulesetOf(const std::string& clause_id) {
  return clause_id.substr(0, clause_id.find('/'));
}

int ListRules(const Args& args) {
  const bool json = args.Has("json");
  std::vector<const v1::Ruleset*> rulesets;
  if (std::optional<std::string> id = args.Value("ruleset")) {
    absl::StatusOr<const v1::Ruleset*> r = BuiltinRuleset(*id);
    if (!r.ok()) return RulesFailed(r.status());
    rulesets.push_back(*r);
  } else {
    absl::StatusOr<std::vector<const v1::Ruleset*>> latest = LatestBuiltinRulesets();
    if (!latest.ok()) return RulesFailed(latest.status());
    rulesets = *std::move(latest);
  }
  google::protobuf::ListValue ids;
  for (const v1::Ruleset* r : rulesets) {
    for (const v1::Article& a : r->articles()) {
      if (json) {
        ids.add_values()->set_string_value(a.id());
      } else {
        std::printf("%-18s %s %s\n", a.id().c_str(), a.title_zh().c_str(), a.title_en().c_str());
      }
      for (const v1::Clause& c : a.clauses()) {
        if (json) {
          ids.add_values()->set_string_value(c.id());
        } else {
          std::printf("%-18s   %s\n", c.id().c_str(), c.title_en().c_str());
        }
      }
    }
  }
  return json ? PrintJson(ids, false) : kExitOk;
}

const v1::Article* ArticleOf(const Rules& rules, const std::string& id) {
  for (const v1::Article& a : rules.ruleset().articles()) {
    if (id == a.id() || id.rfind(a.id() + ".", 0) == 0) return &a;
  }
  return nullptr;
}

// The sanctionings that govern clause `id` (it is theirs) and those that
// only cite it alongside their own.
struct ClauseSanctionings {
  std::vector<const v1::Sanctioning*> governs;
  std::vector<const v1::Sanctioning*> cites;
};

ClauseSanctionings SanctioningsOf(const Rules& rules, const std::string& id) {
  ClauseSanctionings out;
  for (const v1::Sanctioning& s : rules.sanctionings()) {
    if (s.clause() == id) out.governs.push_back(&s);
    for (const std::string& c : s.also_cites()) {
      if (c == id) out.cites.push_back(&s);
    }
  }
  return out;
}

// `arbiter rules show --json`: the clause with its ruleset, its article's
// heading (not the article's other clauses) and its sanctionings.
v1::ClauseReport ClauseReportOf(const Rules& rules, const v1::Clause& clause,
                                const v1::Article* article,
                                const ClauseSanctionings& sanctionings) {
  v1::ClauseReport report;
  report.set_ruleset(rules.id());
  report.set_ruleset_version(rules.ruleset().version());
  report.set_ruleset_hash(rules.hash());
  *report.mutable_clause() = clause;
  if (article != nullptr) {
    report.mutable_article()->set_number(article->number());
    report.mutable_article()->set_id(article->id());
    report.mutable_article()->set_title_zh(article->title_zh());
    report.mutable_article()->set_title_en(article->title_en());
  }
  for (const v1::Sanctioning* s : sanctionings.governs) *report.add_sanctionings() = *s;
  for (const v1::Sanctioning* s : sanctionings.cites) *report.add_also_cited_by() = *s;
  return report;
}

// The sanctions a clause governs, each with the incident, offence and venue
// it applies to, then the sanctionings that cite the clause too.
void PrintSanctionings(const ClauseSanctionings& sanctionings) {
  if (!sanctionings.governs.empty()) std::printf("\nsanctions:\n");
  for (const v1::Sanctioning* s : sanctionings.governs) {
    std::string when = v1::Incident_Name(s->incident());
    if (s->occurrence() > 1) absl::StrAppend(&when, " from offence ", s->occurrence());
    if (s->venue() != v1::GameCreated::VENUE_UNSPECIFIED) {
      absl::StrAppend(&when, " at ", v1::GameCreated::Venue_Name(s->venue()));
    }
    std::printf("  %s: %s\n", when.c_str(), DescribeSanctioning(*s).c_str());
    if (!s->note().empty()) std::printf("    %s\n", s->note().c_str());
  }
  for (const v1::Sanctioning* s : sanctionings.cites) {
    std::printf("  also cited by %s: %s\n", v1::Incident_Name(s->incident()).c_str(),
                DescribeSanctioning(*s).c_str());
  }
}

int Show(const Args& args) {
  const std::string& id = args.positionals()[0];
  absl::StatusOr<Rules> rules = LoadRules(RulesetOf(id));
  if (!rules.ok()) return RulesFailed(rules.status());
  const v1::Clause* clause = rules->FindClause(id);
  if (clause == nullptr) {
    return RulesFailed(kExitBadInput,
                       absl::StrCat("unknown clause \"", id, "\" in ", rules->id(),
                                    " (see: arbiter rules list --ruleset ", rules->id(), ")"));
  }
  const v1::Article* article = ArticleOf(*rules, id);
  const ClauseSanctionings sanctionings = SanctioningsOf(*rules, id);
  if (args.Has("json")) {
    return PrintJson(ClauseReportOf(*rules, *clause, article, sanctionings), true);
  }
  std::printf("%s  %s\n", id.c_str(), clause->title_en().c_str());
  if (article != nullptr) {
    std::printf("article %d %s (%s)\n", article->number(), article->title_zh().c_str(),
                article->title_en().c_str());
  }
  if (!clause->text_zh().empty()) std::printf("\n%s\n", clause->text_zh().c_str());
  std::printf("\n%s\n", clause->summary_en().c_str());
  if (article != nullptr && id == article->id() && !article->clauses().empty()) {
    std::vector<std::string> ids;
    for (const v1::Clause& c : article->clauses()) ids.push_back(c.id());
    std::printf("\nclauses: %s\n", absl::StrJoin(ids, " ").c_str());
  }
  if (!clause->interpretation().empty()) {
    std::printf("\ninterpretation: %s\n", clause->interpretation().c_str());
  }
  PrintSanctionings(sanctionings);
  return 0;
}

// The sanctions that differ, by incident (and offence and venues): added,
// removed, changed, or the same ones moved to another clause.
void PrintSanctionChanges(const std::vector<RulesetDiff::Sanction>& sanctions) {
  std::printf("\nsanctions (by incident):\n");
  if (sanctions.empty()) std::printf("  (none)\n");
  for (const RulesetDiff::Sanction& s : sanctions) {
    std::string what = v1::Incident_Name(s.incident);
    if (s.occurrence > 1) absl::StrAppend(&what, " (offence ", s.occurrence, ")");
    if (!s.venues.empty()) absl::StrAppend(&what, " [", s.venues, "]");
    switch (s.kind) {
      case RulesetDiff::Sanction::kAdded:
        std::printf("  + %s: %s\n", what.c_str(), s.after.c_str());
        break;
      case RulesetDiff::Sanction::kRemoved:
        std::printf("  - %s: %s\n", what.c_str(), s.before.c_str());
        break;
      case RulesetDiff::Sanction::kChanged:
        std::printf("  ~ %s: %s -> %s\n", what.c_str(), s.before.c_str(), s.after.c_str());
        break;
      case RulesetDiff::Sanction::kMoved:
        std::printf("  > %s: %s -> %s (same sanctions, another clause)\n", what.c_str(),
                    s.before.c_str(), s.after.c_str());
        break;
    }
  }
}

// The clauses that differ, by number, in three lines: only in `a`, only in
// `b`, and in both with other text.
void PrintClauseChanges(const std::vector<RulesetDiff::Clause>& clauses, const Rules& a,
                        const Rules& b) {
  std::vector<std::string> added, removed, changed;
  for (const RulesetDiff::Clause& c : clauses) {
    (c.kind == RulesetDiff::Clause::kAdded     ? added
     : c.kind == RulesetDiff::Clause::kRemoved ? removed
                                               : changed)
        .push_back(c.number);
  }
  std::printf("\nclauses (by number):\n");
  if (clauses.empty()) std::printf("  (none)\n");
  if (!added.empty()) {
    std::printf("  + only in %s: %s\n", b.id().c_str(), absl::StrJoin(added, " ").c_str());
  }
  if (!removed.empty()) {
    std::printf("  - only in %s: %s\n", a.id().c_str(), absl::StrJoin(removed, " ").c_str());
  }
  if (!changed.empty()) {
    std::printf("  ~ text differs: %s\n", absl::StrJoin(changed, " ").c_str());
  }
}

int Diff(const Args& args) {
  absl::StatusOr<Rules> a = LoadRulesSpec(args.positionals()[0]);
  if (!a.ok()) return RulesFailed(a.status());
  absl::StatusOr<Rules> b = LoadRulesSpec(args.positionals()[1]);
  if (!b.ok()) return RulesFailed(b.status());
  const RulesetDiff diff = DiffRules(*a, *b);
  for (const auto& [mark, rules] : {std::pair{"---", &*a}, std::pair{"+++", &*b}}) {
    std::printf("%s %s %s %s", mark, rules->id().c_str(), rules->version().c_str(),
                rules->hash().c_str());
    if (!rules->supplement_id().empty()) {
      std::printf(" + %s %s", rules->supplement_id().c_str(), rules->supplement_hash().c_str());
    }
    std::printf("\n");
  }
  if (diff.parameters.empty() && diff.sanctions.empty() && diff.clauses.empty()) {
    std::printf("no differences\n");
    return 0;
  }
  std::printf("\nparameters:\n");
  if (diff.parameters.empty()) std::printf("  (none)\n");
  for (const RulesetDiff::Parameter& p : diff.parameters) {
    std::printf("  ~ %s: %s -> %s\n", p.name.c_str(), p.before.c_str(), p.after.c_str());
  }
  PrintSanctionChanges(diff.sanctions);
  PrintClauseChanges(diff.clauses, *a, *b);
  return 0;
}

int Hash(const Args& args) {
  const std::string& id = args.positionals()[0];
  absl::StatusOr<Rules> rules = LoadRulesSpec(id);
  if (rules.ok()) {
    std::printf("%s\n", rules->hash().c_str());
    return 0;
  }
  absl::StatusOr<const v1::Supplement*> supplement = BuiltinSupplement(id);
  if (!supplement.ok()) {
    return RulesFailed(kExitBadInput, absl::StrCat("unknown ruleset or supplement \"", id, "\""));
  }
  absl::StatusOr<Rules> with = LoadRules((*supplement)->base_ruleset(), id);
  if (!with.ok()) return RulesFailed(with.status());
  std::printf("%s\n", with->supplement_hash().c_str());
  return 0;
}

int Publish(const Args& args) {
  absl::StatusOr<std::unique_ptr<ledger::RuleCatalog>> catalog =
      ledger::RuleCatalog::Open(args.positionals()[0]);
  if (!catalog.ok()) return RulesFailed(catalog.status());
  if (absl::Status st = (*catalog)->PublishBuiltins(); !st.ok()) return RulesFailed(st);
  absl::StatusOr<std::vector<ledger::RuleCatalog::Entry>> entries = (*catalog)->List();
  if (!entries.ok()) return RulesFailed(entries.status());
  for (const ledger::RuleCatalog::Entry& e : *entries) {
    std::printf("%-10s %-32s %-8s %s\n", e.kind.c_str(), e.id.c_str(), e.version.c_str(),
                e.hash.c_str());
  }
  return 0;
}

constexpr Subcommand kRulesSubcommands[] = {
    {&kRulesList, ListRules}, {&kRulesShow, Show},  {&kDiff, Diff},
    {&kHash, Hash},           {&kPublish, Publish},
};
constexpr CommandGroup kRules = {
    .name = "rules",
    .summary = "look up, diff and hash the rules database built into this binary",
    .subcommands = kRulesSubcommands,
};

}  // namespace

int RunRules(int argc, char** argv) { return RunGroup(kRules, argc, argv); }

}  // namespace arbiter::cli
