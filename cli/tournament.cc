// `arbiter tournament create|import|player|pair|replay|withdraw|tiebreak|
// show|standings|export`: tournaments on a server (arbiter.v1.TournamentService).
// --server ADDR / $ARBITER_SERVER and --json as for every client command
// (client.h); exit codes as commands.h.
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "arbiter/v1/tournament.grpc.pb.h"
#include "cli/client.h"
#include "cli/commands.h"

namespace arbiter::cli {
namespace {

constexpr char kUsage[] =
    "usage: arbiter tournament COMMAND [ARGS] [--server ADDR] [--json]\n"
    "  create --id ID --system round-robin|swiss [--title T] [--swiss-method total-score|\n"
    "         points-then-opponents] [--teams] [--rounds N] [--cycles N] [--bye-points 0|1|2]\n"
    "         [--komi STONES] [--location L] [--dates BEGIN[,END]] [--ruleset ID]\n"
    "         [--team ID:NAME]... [--player ID:NAME[:RANK[:TEAM:BOARD]]]...\n"
    "  import --id ID FILE.xml [--system round-robin|swiss] [--swiss-method M] (OpenGotha XML)\n"
    "  player T [--team ID:NAME]... --player ID:NAME[:RANK[:TEAM:BOARD]]...\n"
    "  pair T --round N --board BLACK,WHITE,GAME[,HANDICAP]... [--bye PLAYER]...\n"
    "  replay T --round N --board B --game GAME        (the board's game ended REPLAY)\n"
    "  withdraw T --player P --after-round N [--note TEXT]\n"
    "  tiebreak T --lots|--extra-game --order ID,ID[,...] [--game GAME]... [--note TEXT]\n"
    "  show T\n"
    "  standings T\n"
    "  export T --format opengotha|h9|aga|csv|json [--out FILE] [--sidecar FILE]\n"
    "         (the reasons the format cannot carry go to --sidecar, default FILE.reasons.json)\n";

int Bad(const std::string& sub, const std::string& why) {
  std::fprintf(stderr, "arbiter tournament %s: %s\n", sub.c_str(), why.c_str());
  return 2;
}

// Every value of a repeatable flag, in order.
std::vector<std::string> TakeAll(ClientArgs& args, const std::string& flag, bool* missing) {
  std::vector<std::string> out;
  while (std::optional<std::string> v = args.Take(flag, missing)) out.push_back(*v);
  return out;
}

bool ParsePlayer(const std::string& text, v1::TournamentPlayer* p, std::string* why) {
  std::vector<std::string> f = absl::StrSplit(text, ':');
  if (f.size() < 2 || f.size() == 4 || f.size() > 5) {
    *why = absl::StrCat("--player '", text, "': ID:NAME[:RANK[:TEAM:BOARD]]");
    return false;
  }
  p->set_id(f[0]);
  p->set_name(f[1]);
  if (f.size() >= 3) p->set_rank(f[2]);
  if (f.size() == 5) {
    p->set_team(f[3]);
    int board = 0;
    if (!absl::SimpleAtoi(f[4], &board)) {
      *why = absl::StrCat("--player '", text, "': BOARD is a number");
      return false;
    }
    p->set_board(board);
  }
  return true;
}

bool ParseTeam(const std::string& text, v1::TournamentTeam* t, std::string* why) {
  std::vector<std::string> f = absl::StrSplit(text, absl::MaxSplits(':', 1));
  if (f.size() != 2) {
    *why = absl::StrCat("--team '", text, "': ID:NAME");
    return false;
  }
  t->set_id(f[0]);
  t->set_name(f[1]);
  return true;
}

// Players and teams from --player and --team.
bool TakeEntrants(ClientArgs& args, bool* missing, google::protobuf::RepeatedPtrField<v1::TournamentPlayer>* players,
                  google::protobuf::RepeatedPtrField<v1::TournamentTeam>* teams, std::string* why) {
  for (const std::string& t : TakeAll(args, "--team", missing)) {
    if (!ParseTeam(t, teams->Add(), why)) return false;
  }
  for (const std::string& p : TakeAll(args, "--player", missing)) {
    if (!ParsePlayer(p, players->Add(), why)) return false;
  }
  return true;
}

bool TakeSystem(ClientArgs& args, bool* missing, v1::TournamentSettings* s, std::string* why) {
  if (auto v = args.Take("--system", missing)) {
    if (*v == "round-robin") s->set_system(v1::TournamentSettings::ROUND_ROBIN);
    else if (*v == "swiss") s->set_system(v1::TournamentSettings::SWISS);
    else return *why = "--system: round-robin or swiss", false;
  }
  if (auto v = args.Take("--swiss-method", missing)) {
    if (*v == "total-score") s->set_swiss_method(v1::TournamentSettings::TOTAL_SCORE);
    else if (*v == "points-then-opponents") s->set_swiss_method(v1::TournamentSettings::POINTS_THEN_OPPONENTS);
    else return *why = "--swiss-method: total-score or points-then-opponents", false;
  }
  return true;
}

bool TakeInt(ClientArgs& args, const std::string& flag, bool* missing, int* out, std::string* why) {
  if (auto v = args.Take(flag, missing)) {
    if (!absl::SimpleAtoi(*v, out)) return *why = absl::StrCat(flag, ": a whole number"), false;
  }
  return true;
}

std::string ReadFile(const std::string& path, bool* ok) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  *ok = static_cast<bool>(in) || in.eof();
  return s.str();
}

bool WriteFile(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  out.close();
  return static_cast<bool>(out);
}

void PrintTournament(const v1::Tournament& t) {
  std::printf("%s  %s  (%s%s, revision %llu)\n", t.name().c_str(), t.title().c_str(),
              v1::TournamentSettings::System_Name(t.settings().system()).c_str(),
              t.settings().teams() ? ", teams" : "", static_cast<unsigned long long>(t.revision()));
  for (const v1::TournamentTeam& team : t.teams()) std::printf("  team %s  %s\n", team.id().c_str(), team.name().c_str());
  for (const v1::TournamentPlayer& p : t.players()) {
    std::printf("  player %-16s %s %s %s", p.id().c_str(), p.name().c_str(), p.first_name().c_str(), p.rank().c_str());
    if (!p.team().empty()) std::printf("  team %s board %d", p.team().c_str(), p.board());
    std::printf("\n");
  }
  for (const v1::TournamentRound& r : t.rounds()) {
    std::printf("  round %d\n", r.round());
    for (const v1::Pairing& p : r.pairings()) {
      std::printf("    board %d  %s (B) - %s (W)  game %s\n", p.board(), p.black().c_str(), p.white().c_str(),
                  p.game_id().empty() ? "-" : p.game_id().c_str());
    }
    for (const std::string& b : r.byes()) std::printf("    bye %s\n", b.c_str());
  }
  for (const v1::PlayerWithdrawn& w : t.withdrawals()) {
    std::printf("  withdrawn %s after round %d\n", w.player().c_str(), w.after_round());
  }
}

void PrintStandings(const v1::StandingsReport& r) {
  const bool teams = r.settings().teams();
  const bool swiss = r.settings().system() == v1::TournamentSettings::SWISS;
  std::printf("%s  %s  (%d rounds)\n", r.tournament().c_str(), r.title().c_str(), r.rounds());
  for (const v1::Standing& s : r.standings()) {
    std::string rank = s.rank() == 0 ? "-" : absl::StrCat(s.rank());
    if (teams) {
      std::printf("%4s  %-20s  MP %2d  BP %3d  boards", rank.c_str(), s.name().c_str(), s.points(), s.board_points());
      for (int b : s.board_by_board()) std::printf(" %d", b);
      if (swiss) std::printf("  total %.2f", s.total_score());
    } else {
      std::printf("%4s  %-20s  %3d pts  %s %.2f  B %d", rank.c_str(), s.name().c_str(), s.points(),
                  swiss ? "total" : "A", swiss ? s.total_score() : s.tie_break_a(), s.warnings());
      if (s.withdrawn()) std::printf("  withdrawn");
    }
    if (!s.decided_by().empty()) std::printf("  (by %s)", s.decided_by().c_str());
    std::printf("\n");
  }
  for (const v1::ScoredPairing& p : r.pairings()) {
    if (p.note().empty() || p.status() == v1::ScoredPairing::DECIDED) continue;
    std::printf("  note: round %d board %d %s-%s: %s\n", p.round(), p.board(), p.black().c_str(),
                p.white().c_str(), p.note().c_str());
  }
}

}  // namespace

int RunTournament(int argc, char** argv) {
  ClientArgs args;
  std::string error;
  if (!args.Parse(argc, argv, &error) || args.rest().empty()) return Usage(kUsage);
  const std::string sub = args.rest()[0];
  bool missing = false;
  std::string why;
  auto stub = v1::TournamentService::NewStub(OpenChannel(args.server()));
  grpc::ClientContext context;
  SetDeadline(&context);
  grpc::Status status;
  v1::Tournament tournament;
  // The tournament positional of the commands that take one.
  auto target = [&]() -> std::optional<std::string> {
    if (args.rest().size() != 2) return std::nullopt;
    return absl::StrCat("tournaments/", args.rest()[1]);
  };

  if (sub == "create") {
    v1::CreateTournamentRequest req;
    v1::TournamentCreated* c = req.mutable_tournament();
    v1::TournamentSettings* s = c->mutable_settings();
    int n = 0;
    if (auto v = args.Take("--id", &missing)) c->set_tournament_id(*v);
    if (auto v = args.Take("--title", &missing)) c->set_title(*v);
    if (!TakeSystem(args, &missing, s, &why)) return Bad(sub, why);
    s->set_teams(args.TakeSwitch("--teams"));
    if (!TakeInt(args, "--rounds", &missing, &n, &why)) return Bad(sub, why);
    s->set_rounds(n);
    n = 0;
    if (!TakeInt(args, "--cycles", &missing, &n, &why)) return Bad(sub, why);
    s->set_cycles(n);
    n = 0;
    if (!TakeInt(args, "--bye-points", &missing, &n, &why)) return Bad(sub, why);
    s->set_bye_points(n);
    if (auto v = args.Take("--komi", &missing)) {
      double komi = 0;
      if (!absl::SimpleAtod(*v, &komi)) return Bad(sub, "--komi: a number of stones");
      s->set_komi(komi);
    } else {
      s->set_komi(3.75);
    }
    if (auto v = args.Take("--location", &missing)) s->set_location(*v);
    if (auto v = args.Take("--ruleset", &missing)) s->set_ruleset(*v);
    if (auto v = args.Take("--dates", &missing)) {
      std::vector<std::string> d = absl::StrSplit(*v, absl::MaxSplits(',', 1));
      s->set_begin_date(d[0]);
      s->set_end_date(d.size() > 1 ? d[1] : d[0]);
    }
    if (!TakeEntrants(args, &missing, req.mutable_players(), req.mutable_teams(), &why)) return Bad(sub, why);
    if (missing || args.rest().size() != 1 || c->tournament_id().empty()) return Usage(kUsage);
    if (c->title().empty()) c->set_title(c->tournament_id());
    status = stub->CreateTournament(&context, req, &tournament);
  } else if (sub == "import") {
    v1::ImportTournamentRequest req;
    if (auto v = args.Take("--id", &missing)) req.set_tournament_id(*v);
    if (!TakeSystem(args, &missing, req.mutable_settings(), &why)) return Bad(sub, why);
    if (missing || args.rest().size() != 2 || req.tournament_id().empty()) return Usage(kUsage);
    bool ok = false;
    req.set_opengotha_xml(ReadFile(args.rest()[1], &ok));
    if (!ok) return Bad(sub, absl::StrCat("cannot read ", args.rest()[1]));
    status = stub->ImportTournament(&context, req, &tournament);
  } else if (sub == "player") {
    v1::AddPlayersRequest req;
    if (!TakeEntrants(args, &missing, req.mutable_players(), req.mutable_teams(), &why)) return Bad(sub, why);
    std::optional<std::string> t = target();
    if (missing || !t) return Usage(kUsage);
    req.set_tournament(*t);
    status = stub->AddPlayers(&context, req, &tournament);
  } else if (sub == "pair") {
    v1::PairRoundRequest req;
    v1::TournamentRound* r = req.mutable_round();
    int round = 0;
    if (!TakeInt(args, "--round", &missing, &round, &why)) return Bad(sub, why);
    r->set_round(round);
    int board = 0;
    for (const std::string& text : TakeAll(args, "--board", &missing)) {
      std::vector<std::string> f = absl::StrSplit(text, ',');
      int handicap = 0;
      if (f.size() < 3 || f.size() > 4 || (f.size() == 4 && !absl::SimpleAtoi(f[3], &handicap))) {
        return Bad(sub, absl::StrCat("--board '", text, "': BLACK,WHITE,GAME[,HANDICAP]"));
      }
      v1::Pairing* p = r->add_pairings();
      p->set_board(++board);
      p->set_black(f[0]);
      p->set_white(f[1]);
      p->set_game_id(f[2]);
      p->set_handicap(handicap);
    }
    for (const std::string& bye : TakeAll(args, "--bye", &missing)) r->add_byes(bye);
    std::optional<std::string> t = target();
    if (missing || !t || round == 0) return Usage(kUsage);
    req.set_tournament(*t);
    status = stub->PairRound(&context, req, &tournament);
  } else if (sub == "replay") {
    v1::ScheduleReplayRequest req;
    int n = 0;
    if (!TakeInt(args, "--round", &missing, &n, &why)) return Bad(sub, why);
    req.mutable_replay()->set_round(n);
    n = 0;
    if (!TakeInt(args, "--board", &missing, &n, &why)) return Bad(sub, why);
    req.mutable_replay()->set_board(n);
    if (auto v = args.Take("--game", &missing)) req.mutable_replay()->set_game_id(*v);
    std::optional<std::string> t = target();
    if (missing || !t) return Usage(kUsage);
    req.set_tournament(*t);
    status = stub->ScheduleReplay(&context, req, &tournament);
  } else if (sub == "withdraw") {
    v1::WithdrawPlayerRequest req;
    if (auto v = args.Take("--player", &missing)) req.mutable_withdrawal()->set_player(*v);
    int n = -1;
    if (!TakeInt(args, "--after-round", &missing, &n, &why)) return Bad(sub, why);
    req.mutable_withdrawal()->set_after_round(n);
    if (auto v = args.Take("--note", &missing)) req.mutable_withdrawal()->set_note(*v);
    std::optional<std::string> t = target();
    if (missing || !t || n < 0) return Usage(kUsage);
    req.set_tournament(*t);
    status = stub->WithdrawPlayer(&context, req, &tournament);
  } else if (sub == "tiebreak") {
    v1::DecideTieBreakRequest req;
    v1::TieBreakDecided* d = req.mutable_decision();
    if (args.TakeSwitch("--lots")) d->set_method(v1::TieBreakDecided::LOTS);
    if (args.TakeSwitch("--extra-game")) d->set_method(v1::TieBreakDecided::EXTRA_GAME);
    if (auto v = args.Take("--order", &missing)) {
      for (absl::string_view id : absl::StrSplit(*v, ',')) d->add_order(std::string(id));
    }
    for (const std::string& g : TakeAll(args, "--game", &missing)) d->add_game_ids(g);
    if (auto v = args.Take("--note", &missing)) d->set_note(*v);
    std::optional<std::string> t = target();
    if (missing || !t) return Usage(kUsage);
    req.set_tournament(*t);
    status = stub->DecideTieBreak(&context, req, &tournament);
  } else if (sub == "show") {
    v1::GetTournamentRequest req;
    std::optional<std::string> t = target();
    if (!t) return Usage(kUsage);
    req.set_name(*t);
    status = stub->GetTournament(&context, req, &tournament);
  } else if (sub == "standings") {
    v1::GetStandingsRequest req;
    std::optional<std::string> t = target();
    if (!t) return Usage(kUsage);
    req.set_tournament(*t);
    v1::StandingsReport report;
    status = stub->GetStandings(&context, req, &report);
    if (!status.ok()) return Fail("tournament standings", args.server(), status);
    if (args.json()) {
      std::printf("%s\n", ToJson(report).c_str());
    } else {
      PrintStandings(report);
    }
    return 0;
  } else if (sub == "export") {
    v1::ExportTournamentRequest req;
    std::optional<std::string> format = args.Take("--format", &missing);
    std::optional<std::string> out = args.Take("--out", &missing);
    std::optional<std::string> sidecar = args.Take("--sidecar", &missing);
    std::optional<std::string> t = target();
    if (missing || !t || !format) return Usage(kUsage);
    if (*format == "opengotha") req.set_format(v1::ExportTournamentRequest::OPENGOTHA_XML);
    else if (*format == "h9") req.set_format(v1::ExportTournamentRequest::EGD_H9);
    else if (*format == "aga") req.set_format(v1::ExportTournamentRequest::AGA);
    else if (*format == "csv") req.set_format(v1::ExportTournamentRequest::CSV);
    else if (*format == "json") req.set_format(v1::ExportTournamentRequest::JSON);
    else return Bad(sub, "--format: opengotha, h9, aga, csv or json");
    req.set_tournament(*t);
    v1::ExportTournamentResponse resp;
    status = stub->ExportTournament(&context, req, &resp);
    if (!status.ok()) return Fail("tournament export", args.server(), status);
    if (!sidecar && out) sidecar = *out + ".reasons.json";
    if (sidecar && !WriteFile(*sidecar, resp.sidecar_json())) return Bad(sub, absl::StrCat("cannot write ", *sidecar));
    if (out && !WriteFile(*out, resp.content())) return Bad(sub, absl::StrCat("cannot write ", *out));
    if (args.json()) {
      std::printf("%s\n", ToJson(resp).c_str());
    } else if (!out) {
      std::fwrite(resp.content().data(), 1, resp.content().size(), stdout);
    } else {
      std::printf("wrote %s and %s (%d reasons)\n", out->c_str(), sidecar->c_str(), resp.sidecar().entries_size());
    }
    return 0;
  } else {
    return Usage(kUsage);
  }
  if (!status.ok()) return Fail(absl::StrCat("tournament ", sub), args.server(), status);
  if (args.json()) {
    std::printf("%s\n", ToJson(tournament).c_str());
  } else {
    PrintTournament(tournament);
  }
  return 0;
}

}  // namespace arbiter::cli
