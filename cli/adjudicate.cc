// `arbiter adjudicate [--ruleset ID] [--json] FILE|-` (DOMAIN.md §6): judges
// one game's event lines offline and prints its ruling history and result.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/engine/adjudicator.h"
#include "adjudicator/engine/report.h"
#include "arbiter/v1/events.pb.h"
#include "cli/commands.h"
#include "google/protobuf/util/json_util.h"
#include "rulesdb/rules.h"

namespace arbiter::cli {
namespace {

constexpr char kUsage[] = "usage: arbiter adjudicate [--ruleset ID] [--json] FILE|-\n";

int BadInput(int line, const std::string& why) {
  std::fprintf(stderr, "arbiter adjudicate: line %d: %s\n", line, why.c_str());
  return 2;
}

// The JSON key of an event's kind, for the readable table ("phoneRang").
std::string KindName(const v1::Event& e) {
  const auto* field = e.GetDescriptor()->FindFieldByNumber(e.kind_case());
  return field == nullptr ? "" : field->json_name();
}

}  // namespace

int RunAdjudicate(int argc, char** argv) {
  std::string ruleset;
  bool json = false;
  std::optional<std::string> path;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--json") {
      json = true;
    } else if (arg == "--ruleset" && i + 1 < argc) {
      ruleset = argv[++i];
    } else if (arg.rfind("--ruleset=", 0) == 0) {
      ruleset = arg.substr(10);
    } else if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if ((arg == "-" || arg[0] != '-') && !path.has_value()) {
      path = std::string(arg);
    } else {
      std::fprintf(stderr, "arbiter adjudicate: unexpected argument '%s'\n%s", argv[i], kUsage);
      return 2;
    }
  }
  if (!path.has_value()) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  std::ifstream file;
  std::istream* in = &std::cin;
  if (*path != "-") {
    file.open(*path);
    if (!file) {
      std::fprintf(stderr, "arbiter adjudicate: cannot read %s\n", path->c_str());
      return 2;
    }
    in = &file;
  }

  std::optional<Adjudicator> adjudicator;
  std::vector<std::string> kinds;
  std::string line;
  int number = 0;
  google::protobuf::util::JsonParseOptions parse;
  parse.ignore_unknown_fields = false;  // an unknown kind or field is bad input
  while (std::getline(*in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    v1::Event event;
    if (const auto s = google::protobuf::util::JsonStringToMessage(line, &event, parse); !s.ok()) {
      return BadInput(number, std::string(s.message()));
    }
    if (!adjudicator.has_value()) {
      if (!event.has_game_created()) return BadInput(number, "the first event must be gameCreated");
      const v1::GameCreated& g = event.game_created();
      // The game's own ruleset at its pinned version, unless --ruleset
      // re-judges it under another (ID or ID@VERSION, by default the latest).
      const std::string id = !ruleset.empty()       ? ruleset.substr(0, ruleset.find('@'))
                             : !g.ruleset().empty() ? g.ruleset()
                                                    : std::string("cn-2002");
      absl::StatusOr<Rules> rules =
          ruleset.empty() ? LoadRulesFor(g)
                          : LoadRulesSpec(g.supplement().empty()
                                              ? ruleset
                                              : absl::StrCat(ruleset, "+", g.supplement()));
      if (!rules.ok() && !ruleset.empty() && !g.supplement().empty() && id != g.ruleset()) {
        // Re-judging under another ruleset: the game's supplement is layered
        // on its own ruleset and may not apply to this one.
        absl::StatusOr<Rules> bare = LoadRulesSpec(ruleset);
        if (bare.ok()) {
          std::fprintf(stderr,
                       "arbiter adjudicate: supplement %s does not apply to %s (%s); "
                       "judged without it\n",
                       g.supplement().c_str(), id.c_str(),
                       std::string(rules.status().message()).c_str());
          rules = std::move(bare);
        }
      }
      if (!rules.ok()) return BadInput(number, std::string(rules.status().message()));
      absl::StatusOr<Adjudicator> a = Adjudicator::Create(*std::move(rules));
      if (!a.ok()) return BadInput(number, std::string(a.status().message()));
      adjudicator.emplace(*std::move(a));
    }
    if (absl::StatusOr<std::vector<v1::Ruling>> r = adjudicator->Apply(event); !r.ok()) {
      return BadInput(number, std::string(r.status().message()));
    }
    kinds.push_back(KindName(event));
  }
  if (!adjudicator.has_value()) {
    std::fprintf(stderr, "arbiter adjudicate: no events (the first must be gameCreated)\n");
    return 2;
  }

  const v1::AdjudicationReport report = BuildReport(*adjudicator);
  if (json) {
    google::protobuf::util::JsonPrintOptions print;
    print.always_print_primitive_fields = true;  // so "pending": false appears
    print.preserve_proto_field_names = false;    // lowerCamel, as on the wire
    std::string out;
    if (const auto s = google::protobuf::util::MessageToJsonString(report, &out, print); !s.ok()) {
      std::fprintf(stderr, "arbiter adjudicate: %s\n", std::string(s.message()).c_str());
      return 2;
    }
    std::fputs(out.c_str(), stdout);
    std::fputc('\n', stdout);
  } else {
    std::fputs(RenderText(report, kinds).c_str(), stdout);
  }
  return 0;
}

}  // namespace arbiter::cli
