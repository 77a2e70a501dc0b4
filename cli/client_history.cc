// `arbiter history GAME [--server ADDR] [--json]`: the game's events and its
// ruling history with each clause's text in Chinese and English, then the
// result. With --json one object: {gameId, rulesPin, events, rulings,
// result, state} (arbiter.v1.GameRecord).
#include <cstdio>
#include <string>

#include "absl/strings/str_cat.h"
#include "adjudicator/engine/report.h"
#include "cli/client.h"
#include "cli/commands.h"

namespace arbiter::cli {
namespace {

constexpr FlagSpec kHistoryFlags[] = {kJsonFlag, kServerFlag};
constexpr CommandSpec kHistory = {
    .name = "history",
    .positionals = "GAME",
    .summary = "a game's events and ruling history, with the clause texts, and its result",
    .min_positionals = 1,
    .max_positionals = 1,
    .flags = kHistoryFlags,
    .notes =
        "--json: one arbiter.v1.GameRecord {gameId, rulesPin, events, rulings, result, state}\n",
};

// The game's events, every page in revision order, onto `record`.
grpc::Status ReadEvents(v1::Arbiter::Stub& stub, const std::string& name, v1::GameRecord& record) {
  std::string token;
  do {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::ListEventsRequest req;
    req.set_game(name);
    req.set_page_size(1000);
    req.set_page_token(token);
    v1::ListEventsResponse resp;
    if (grpc::Status s = stub.ListEvents(&context, req, &resp); !s.ok()) return s;
    for (const v1::RecordedEvent& e : resp.events()) *record.add_events() = e;
    token = resp.next_page_token();
  } while (!token.empty());
  return grpc::Status::OK;
}

// The game's ruling history, every page in order, and its result (which
// comes with the rulings) onto `record`.
grpc::Status ReadRulings(v1::Arbiter::Stub& stub, const std::string& name, v1::GameRecord& record) {
  std::string token;
  do {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::ListRulingsRequest req;
    req.set_game(name);
    req.set_page_size(1000);
    req.set_page_token(token);
    v1::ListRulingsResponse resp;
    if (grpc::Status s = stub.ListRulings(&context, req, &resp); !s.ok()) return s;
    for (const v1::Ruling& r : resp.rulings()) *record.add_rulings() = r;
    if (resp.has_result()) *record.mutable_result() = resp.result();
    token = resp.next_page_token();
  } while (!token.empty());
  return grpc::Status::OK;
}

// The record for a reader: the players, each event with the ruling it drew,
// each ruling with its clause texts, then the result and its SGF RE value.
void PrintRecord(const v1::Game& game, const v1::GameRecord& record) {
  const v1::GameCreated& g = game.created();
  std::printf("game %s: %s (B) vs %s (W), %s\n", game.game_id().c_str(), g.black().name().c_str(),
              g.white().name().c_str(), game.rules_pin().c_str());
  std::printf("\nevents (%d):\n", record.events_size());
  for (const v1::RecordedEvent& e : record.events()) {
    std::printf("  %4llu  %s  %-16s %s%s\n", static_cast<unsigned long long>(e.revision()),
                FormatTime(e.event().at()).c_str(), EventKind(e.event()).c_str(),
                EventDetails(e.event()).c_str(),
                e.rulings_size() > 0 ? absl::StrCat("  -> ruling ", e.rulings(0).number(),
                                                    e.rulings_size() > 1 ? "+" : "")
                                           .c_str()
                                     : "");
  }
  std::printf("\nruling history (%d):\n", record.rulings_size());
  if (record.rulings().empty()) std::printf("  none\n");
  for (const v1::Ruling& r : record.rulings()) std::printf("  %s\n", RulingText(r).c_str());
  std::printf("\nresult: %s\n",
              ResultLine(record.has_result() ? &record.result() : nullptr).c_str());
  if (record.has_result() && !record.result().sgf().empty()) {
    std::printf("        RE[%s]%s\n", record.result().sgf().c_str(),
                record.result().clause().empty()
                    ? ""
                    : absl::StrCat(" per ", record.result().clause()).c_str());
  }
}

}  // namespace

int RunHistory(int argc, char** argv) {
  Args args;
  if (std::optional<int> exit = ParseArgs(kHistory, argc, argv, &args)) return *exit;
  const std::string name = GameResource(args.positionals()[0]);
  const std::string server = ServerOf(args);
  auto stub = Connect(server);

  v1::Game game;
  {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::GetGameRequest req;
    req.set_name(name);
    if (grpc::Status s = stub->GetGame(&context, req, &game); !s.ok()) {
      return Fail("history", server, s);
    }
  }
  v1::GameRecord record;
  record.set_game_id(game.game_id());
  record.set_rules_pin(game.rules_pin());
  if (grpc::Status s = ReadEvents(*stub, name, record); !s.ok()) return Fail("history", server, s);
  if (grpc::Status s = ReadRulings(*stub, name, record); !s.ok()) {
    return Fail("history", server, s);
  }
  *record.mutable_state() = game.state();

  if (args.Has("json")) {
    std::printf("%s\n", ToJson(record).c_str());
    return 0;
  }
  PrintRecord(game, record);
  return 0;
}

}  // namespace arbiter::cli
