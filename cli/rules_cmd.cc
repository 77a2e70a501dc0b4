// `arbiter rules`: look up the rules database.
//
//   arbiter rules list [--ruleset ID] [--json]   every clause id
//   arbiter rules show CLAUSE [--json]           text, sanctions, interpretation
//   arbiter rules diff A B                       what changes from ruleset A to B
//                                                (either may be RULESET[@VERSION][+SUPPLEMENT];
//                                                without a version, the latest)
//   arbiter rules hash ID                        a ruleset's (ID[@VERSION]) or supplement's SHA-256
//   arbiter rules publish DB                     publish the built-ins to a catalog
//
// Unknown ids and bad usage exit 2; an unavailable catalog exits 3.
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli/commands.h"
#include "google/protobuf/struct.pb.h"  // ListValue: a bare JSON array
#include "google/protobuf/util/json_util.h"
#include "rulesdb/builtin_rules.h"
#include "rulesdb/catalog.h"
#include "rulesdb/rules.h"
#include "rulesdb/ruleset_diff.h"

namespace arbiter::cli {
namespace {

constexpr char kUsage[] =
    "usage: arbiter rules list [--ruleset ID] [--json]\n"
    "       arbiter rules show CLAUSE [--json]\n"
    "       arbiter rules diff RULESET_A[@VERSION][+SUPPLEMENT] RULESET_B[@VERSION][+SUPPLEMENT]\n"
    "       arbiter rules hash RULESET[@VERSION]|SUPPLEMENT\n"
    "       arbiter rules publish DB\n";

int Fail(int code, const std::string& why) {
  std::fprintf(stderr, "arbiter rules: %s\n", why.c_str());
  return code;
}

int Usage() {
  std::fputs(kUsage, stderr);
  return 2;
}

// Positional arguments and the flags this command knows.
struct Args {
  std::vector<std::string> positional;
  std::string ruleset;
  bool json = false;
  std::string error;
};

Args Parse(int argc, char** argv) {
  Args args;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--json") {
      args.json = true;
    } else if (arg == "--ruleset" && i + 1 < argc) {
      args.ruleset = argv[++i];
    } else if (arg.rfind("--", 0) == 0) {
      args.error = "unknown or incomplete flag " + arg;
    } else {
      args.positional.push_back(arg);
    }
  }
  return args;
}

int PrintJson(const google::protobuf::Message& message, bool pretty) {
  google::protobuf::util::JsonPrintOptions options;
  options.add_whitespace = pretty;
  std::string out;
  if (const auto s = google::protobuf::util::MessageToJsonString(message, &out, options);
      !s.ok()) {
    return Fail(1, "cannot render JSON: " + std::string(s.message()));
  }
  std::printf("%s\n", out.c_str());
  return 0;
}

std::string RulesetOf(const std::string& clause_id) {
  return clause_id.substr(0, clause_id.find('/'));
}

int List(const Args& args) {
  if (!args.positional.empty()) return Usage();
  std::vector<const v1::Ruleset*> rulesets;
  if (!args.ruleset.empty()) {
    absl::StatusOr<const v1::Ruleset*> r = BuiltinRuleset(args.ruleset);
    if (!r.ok()) return Fail(2, std::string(r.status().message()));
    rulesets.push_back(*r);
  } else {
    absl::StatusOr<std::vector<const v1::Ruleset*>> latest = LatestBuiltinRulesets();
    if (!latest.ok()) return Fail(1, std::string(latest.status().message()));
    rulesets = *std::move(latest);
  }
  google::protobuf::ListValue ids;
  for (const v1::Ruleset* r : rulesets) {
    for (const v1::Article& a : r->articles()) {
      if (args.json) {
        ids.add_values()->set_string_value(a.id());
      } else {
        std::printf("%-18s %s %s\n", a.id().c_str(), a.title_zh().c_str(), a.title_en().c_str());
      }
      for (const v1::Clause& c : a.clauses()) {
        if (args.json) {
          ids.add_values()->set_string_value(c.id());
        } else {
          std::printf("%-18s   %s\n", c.id().c_str(), c.title_en().c_str());
        }
      }
    }
  }
  return args.json ? PrintJson(ids, false) : 0;
}

const v1::Article* ArticleOf(const Rules& rules, const std::string& id) {
  for (const v1::Article& a : rules.ruleset().articles()) {
    if (id == a.id() || id.rfind(a.id() + ".", 0) == 0) return &a;
  }
  return nullptr;
}

int Show(const Args& args) {
  if (args.positional.size() != 1) return Usage();
  const std::string& id = args.positional[0];
  absl::StatusOr<Rules> rules = LoadRules(RulesetOf(id));
  if (!rules.ok()) return Fail(2, std::string(rules.status().message()));
  const v1::Clause* clause = rules->FindClause(id);
  if (clause == nullptr) {
    return Fail(2, absl::StrCat("unknown clause \"", id, "\" in ", rules->id(),
                                " (see: arbiter rules list --ruleset ", rules->id(), ")"));
  }
  const v1::Article* article = ArticleOf(*rules, id);
  std::vector<const v1::Sanctioning*> governs, cites;
  for (const v1::Sanctioning& s : rules->sanctionings()) {
    if (s.clause() == id) governs.push_back(&s);
    for (const std::string& c : s.also_cites()) {
      if (c == id) cites.push_back(&s);
    }
  }
  if (args.json) {
    v1::ClauseReport report;
    report.set_ruleset(rules->id());
    report.set_ruleset_version(rules->ruleset().version());
    report.set_ruleset_hash(rules->hash());
    *report.mutable_clause() = *clause;
    if (article != nullptr) {
      report.mutable_article()->set_number(article->number());
      report.mutable_article()->set_id(article->id());
      report.mutable_article()->set_title_zh(article->title_zh());
      report.mutable_article()->set_title_en(article->title_en());
    }
    for (const v1::Sanctioning* s : governs) *report.add_sanctionings() = *s;
    for (const v1::Sanctioning* s : cites) *report.add_also_cited_by() = *s;
    return PrintJson(report, true);
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
  if (!governs.empty()) std::printf("\nsanctions:\n");
  for (const v1::Sanctioning* s : governs) {
    std::string when = v1::Incident_Name(s->incident());
    if (s->occurrence() > 1) absl::StrAppend(&when, " from offence ", s->occurrence());
    if (s->venue() != v1::GameCreated::VENUE_UNSPECIFIED) {
      absl::StrAppend(&when, " at ", v1::GameCreated::Venue_Name(s->venue()));
    }
    std::printf("  %s: %s\n", when.c_str(), DescribeSanctioning(*s).c_str());
    if (!s->note().empty()) std::printf("    %s\n", s->note().c_str());
  }
  for (const v1::Sanctioning* s : cites) {
    std::printf("  also cited by %s: %s\n", v1::Incident_Name(s->incident()).c_str(),
                DescribeSanctioning(*s).c_str());
  }
  return 0;
}

int Diff(const Args& args) {
  if (args.positional.size() != 2) return Usage();
  absl::StatusOr<Rules> a = LoadRulesSpec(args.positional[0]);
  if (!a.ok()) return Fail(2, std::string(a.status().message()));
  absl::StatusOr<Rules> b = LoadRulesSpec(args.positional[1]);
  if (!b.ok()) return Fail(2, std::string(b.status().message()));
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
  std::printf("\nsanctions (by incident):\n");
  if (diff.sanctions.empty()) std::printf("  (none)\n");
  for (const RulesetDiff::Sanction& s : diff.sanctions) {
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
  std::vector<std::string> added, removed, changed;
  for (const RulesetDiff::Clause& c : diff.clauses) {
    (c.kind == RulesetDiff::Clause::kAdded     ? added
     : c.kind == RulesetDiff::Clause::kRemoved ? removed
                                               : changed)
        .push_back(c.number);
  }
  std::printf("\nclauses (by number):\n");
  if (diff.clauses.empty()) std::printf("  (none)\n");
  if (!added.empty()) {
    std::printf("  + only in %s: %s\n", b->id().c_str(), absl::StrJoin(added, " ").c_str());
  }
  if (!removed.empty()) {
    std::printf("  - only in %s: %s\n", a->id().c_str(), absl::StrJoin(removed, " ").c_str());
  }
  if (!changed.empty()) {
    std::printf("  ~ text differs: %s\n", absl::StrJoin(changed, " ").c_str());
  }
  return 0;
}

int Hash(const Args& args) {
  if (args.positional.size() != 1) return Usage();
  const std::string& id = args.positional[0];
  absl::StatusOr<Rules> rules = LoadRulesSpec(id);
  if (rules.ok()) {
    std::printf("%s\n", rules->hash().c_str());
    return 0;
  }
  absl::StatusOr<const v1::Supplement*> supplement = BuiltinSupplement(id);
  if (!supplement.ok()) {
    return Fail(2, absl::StrCat("unknown ruleset or supplement \"", id, "\""));
  }
  absl::StatusOr<Rules> with = LoadRules((*supplement)->base_ruleset(), id);
  if (!with.ok()) return Fail(1, std::string(with.status().message()));
  std::printf("%s\n", with->supplement_hash().c_str());
  return 0;
}

int Publish(const Args& args) {
  if (args.positional.size() != 1) return Usage();
  absl::StatusOr<std::unique_ptr<RuleCatalog>> catalog = RuleCatalog::Open(args.positional[0]);
  if (!catalog.ok()) return Fail(3, std::string(catalog.status().message()));
  if (absl::Status st = (*catalog)->PublishBuiltins(); !st.ok()) {
    return Fail(st.code() == absl::StatusCode::kAlreadyExists ? 1 : 3,
                std::string(st.message()));
  }
  absl::StatusOr<std::vector<RuleCatalog::Entry>> entries = (*catalog)->List();
  if (!entries.ok()) return Fail(3, std::string(entries.status().message()));
  for (const RuleCatalog::Entry& e : *entries) {
    std::printf("%-10s %-32s %-8s %s\n", e.kind.c_str(), e.id.c_str(), e.version.c_str(),
                e.hash.c_str());
  }
  return 0;
}

}  // namespace

int RunRules(int argc, char** argv) {
  if (argc < 2) return Usage();
  const std::string sub = argv[1];
  const Args args = Parse(argc - 1, argv + 1);
  if (!args.error.empty()) {
    Fail(2, args.error);
    return Usage();
  }
  if (!args.ruleset.empty() && sub != "list") return Usage();
  if (sub == "list") return List(args);
  if (sub == "show") return Show(args);
  if (sub == "diff") return Diff(args);
  if (sub == "hash") return Hash(args);
  if (sub == "publish") return Publish(args);
  return Usage();
}

}  // namespace arbiter::cli
