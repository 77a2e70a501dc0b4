// `arbiter tournament create|import|player`: who plays, under what system.
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "cli/complaint.h"
#include "cli/exit_codes.h"
#include "cli/files.h"
#include "cli/game_flags.h"
#include "cli/tournament.h"

namespace arbiter::cli {
namespace {

constexpr FlagSpec kTeamFlag = {"team", "ID:NAME", "a team", true};
constexpr FlagSpec kPlayerFlag = {
    "player", "ID:FAMILY[,GIVEN][:RANK[:TEAM:BOARD]]",
    "a player: the native name as they write it (family, then given; a name given whole "
    "in FAMILY), TEAM:BOARD in a team event",
    true};
constexpr FlagSpec kRomanizedFlag = {
    "romanized", "ID:FAMILY[,GIVEN]",
    "player ID's name in Latin letters, for the ASCII formats (EGD, AGA) and OpenGotha", true};
// A player's record for the federations' files, each ID:VALUE onto the
// --player of that id (or, in `tournament update`, the player as it is).
constexpr FlagSpec kClubFlag = {"club", "ID:CLUB",
                                "player ID's club (EGD .h9, OpenGotha: 4 letters)", true};
constexpr FlagSpec kPlayerCountryFlag = {"player-country", "ID:CC",
                                         "player ID's country, ISO 3166 alpha-2 (CN, FR)", true};
constexpr FlagSpec kEgdPinFlag = {"egd-pin", "ID:PIN", "player ID's EGD PIN (8 digits)", true};
constexpr FlagSpec kAgaIdFlag = {"aga-id", "ID:NUMBER", "player ID's AGA membership number", true};
constexpr FlagSpec kSystemFlag = {"system", "SYSTEM", "round-robin or swiss"};
constexpr FlagSpec kSwissMethodFlag = {"swiss-method", "METHOD",
                                       "total-score or points-then-opponents"};

// The EGD's .h9 header fields (CL[], TM[], PC[country, ...]), which an
// OpenGotha file cannot say: set at creation or at an import.
constexpr FlagSpec kCountryFlag = {"country", "CC",
                                   "the venue's country, ISO 3166 alpha-2 (EGD PC[])"};
constexpr FlagSpec kEgfClassFlag = {"egf-class", "A|B|C|D", "the EGF tournament class (EGD CL[])"};
constexpr FlagSpec kAdjustedTimeFlag = {"adjusted-time", "MINUTES",
                                        "the EGF adjusted time (EGD TM[])"};

constexpr FlagSpec kTournamentCreateFlags[] = {
    {"id", "ID", "the tournament id", false, true},
    kSystemFlag,
    {"title", "TITLE", "(default: the id)"},
    kSwissMethodFlag,
    {"teams", "", "a team event"},
    {"team-system", "fixed|round-lineup",
     "a team event's boards: fixed (分台定人制, the default) or a lineup each round (临场出人制)"},
    {"board-colours", "odd-black|odd-white|all-black",
     "the colours of the team named first in a match (default odd-black: Black on boards 1, 3...)"},
    {"match-boards", "N", "the players a team fields in a match (default: its registered boards)"},
    {"rounds", "N", "rounds (swiss)"},
    {"cycles", "N", "cycles (round-robin)"},
    {"bye-points", "0|1|2", "points for a bye"},
    {"komi", "STONES", "komi in stones (default 3.75)"},
    {"location", "PLACE", "where it is played"},
    {"dates", "BEGIN[,END]", "when it is played"},
    {"ruleset", "ID", "the ruleset of its games"},
    kCountryFlag,
    kEgfClassFlag,
    kAdjustedTimeFlag,
    kMainTimeFlag,
    kByoYomiFlag,
    kVenueFlag,
    {"live", "", "the server keeps the clocks of the games `start-round` creates"},
    kTeamFlag,
    kPlayerFlag,
    kRomanizedFlag,
    kClubFlag,
    kPlayerCountryFlag,
    kEgdPinFlag,
    kAgaIdFlag,
    kJsonFlag,
    kServerFlag,
};
constexpr FlagSpec kImportFlags[] = {
    {"id", "ID", "the tournament id", false, true},
    kSystemFlag,
    kSwissMethodFlag,
    kEgfClassFlag,
    kAdjustedTimeFlag,
    kCountryFlag,
    {"location", "CITY", "the venue's city (EGD PC[]), instead of the file's"},
    kJsonFlag,
    kServerFlag,
};
constexpr FlagSpec kPlayerFlags[] = {kTeamFlag,  kPlayerFlag,        kRomanizedFlag,
                                     kClubFlag,  kPlayerCountryFlag, kEgdPinFlag,
                                     kAgaIdFlag, kJsonFlag,          kServerFlag};

// "FAMILY[,GIVEN]" into `family` and `given`.
void SplitName(absl::string_view text, std::string* family, std::string* given) {
  std::vector<std::string> f = absl::StrSplit(text, absl::MaxSplits(',', 1));
  *family = f[0];
  *given = f.size() > 1 ? f[1] : "";
}

bool ParsePlayer(const std::string& text, v1::TournamentPlayer* p, std::string* why) {
  std::vector<std::string> f = absl::StrSplit(text, ':');
  if (f.size() < 2 || f.size() == 4 || f.size() > 5) {
    *why = absl::StrCat("--player '", text, "': ID:FAMILY[,GIVEN][:RANK[:TEAM:BOARD]]");
    return false;
  }
  p->set_id(f[0]);
  SplitName(f[1], p->mutable_name(), p->mutable_first_name());
  if (f.size() >= 3) p->set_rank(f[2]);
  if (f.size() == 5) {
    int board = 0;
    if (!absl::SimpleAtoi(f[4], &board)) {
      *why = absl::StrCat("--player '", text, "': BOARD is a number");
      return false;
    }
    p->set_team(f[3]);
    p->set_board(board);
  }
  return true;
}

// --romanized, --club, --player-country, --egd-pin and --aga-id, each
// ID:VALUE, onto the player of `players` with that id.
bool SetPlayerDetails(const Args& args,
                      google::protobuf::RepeatedPtrField<v1::TournamentPlayer>* players,
                      std::string* why) {
  struct Detail {
    absl::string_view flag;
    absl::string_view shape;
    void (*set)(const std::string& value, v1::TournamentPlayer* p);
  };
  static constexpr Detail kDetails[] = {
      {"romanized", "ID:FAMILY[,GIVEN]",
       [](const std::string& v, v1::TournamentPlayer* p) {
         SplitName(v, p->mutable_romanized_family_name(), p->mutable_romanized_given_name());
       }},
      {"club", "ID:CLUB", [](const std::string& v, v1::TournamentPlayer* p) { p->set_club(v); }},
      {"player-country", "ID:CC",
       [](const std::string& v, v1::TournamentPlayer* p) { p->set_country(v); }},
      {"egd-pin", "ID:PIN",
       [](const std::string& v, v1::TournamentPlayer* p) { p->set_egf_pin(v); }},
      {"aga-id", "ID:NUMBER",
       [](const std::string& v, v1::TournamentPlayer* p) { p->set_aga_id(v); }},
  };
  for (const Detail& d : kDetails) {
    for (const std::string& text : args.Values(d.flag)) {
      std::vector<std::string> f = absl::StrSplit(text, absl::MaxSplits(':', 1));
      if (f.size() != 2 || f[1].empty()) {
        *why = absl::StrCat("--", d.flag, " '", text, "': ", d.shape);
        return false;
      }
      v1::TournamentPlayer* found = nullptr;
      for (v1::TournamentPlayer& p : *players) {
        if (p.id() == f[0]) found = &p;
      }
      if (found == nullptr) {
        *why = absl::StrCat("--", d.flag, " '", text, "': no player ", f[0], " in this command");
        return false;
      }
      d.set(f[1], found);
    }
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

// Players and teams from --player, --romanized and --team.
bool AddEntrants(const Args& args,
                 google::protobuf::RepeatedPtrField<v1::TournamentPlayer>* players,
                 google::protobuf::RepeatedPtrField<v1::TournamentTeam>* teams, std::string* why) {
  for (const std::string& t : args.Values("team")) {
    if (!ParseTeam(t, teams->Add(), why)) return false;
  }
  for (const std::string& p : args.Values("player")) {
    if (!ParsePlayer(p, players->Add(), why)) return false;
  }
  return SetPlayerDetails(args, players, why);
}

// --team-system, --board-colours and --match-boards.
bool SetTeamSettings(const Args& args, v1::TournamentSettings* s, std::string* why) {
  using v1::TournamentSettings;
  if (std::optional<std::string> v = args.Value("team-system")) {
    *v = absl::AsciiStrToLower(*v);
    if (*v == "fixed") {
      s->set_team_system(TournamentSettings::FIXED_BOARDS);
    } else if (*v == "round-lineup") {
      s->set_team_system(TournamentSettings::ROUND_LINEUP);
    } else if (*v == "all-play" || *v == "challenge") {
      *why = absl::StrCat("--team-system ", *v, ": ",
                          *v == "all-play" ? "全队轮赛制 (25.2)" : "擂台赛 (26.6)",
                          " is not supported; fixed (分台定人制) or round-lineup (临场出人制)");
      return false;
    } else {
      *why = "--team-system: fixed or round-lineup";
      return false;
    }
  }
  if (std::optional<std::string> v = args.Value("board-colours")) {
    *v = absl::AsciiStrToLower(*v);
    if (*v == "odd-black") {
      s->set_board_colours(TournamentSettings::ODD_BLACK);
    } else if (*v == "odd-white") {
      s->set_board_colours(TournamentSettings::ODD_WHITE);
    } else if (*v == "all-black") {
      s->set_board_colours(TournamentSettings::ALL_BLACK);
    } else {
      *why = "--board-colours: odd-black, odd-white or all-black";
      return false;
    }
  }
  int boards = 0;
  if (absl::Status st = args.Number("match-boards", &boards); !st.ok()) {
    *why = std::string(st.message());
    return false;
  }
  s->set_match_boards(boards);
  return true;
}

// --system and --swiss-method.
bool SetSystem(const Args& args, v1::TournamentSettings* s, std::string* why) {
  if (std::optional<std::string> v = args.Value("system")) {
    *v = absl::AsciiStrToLower(*v);
    if (*v == "round-robin") {
      s->set_system(v1::TournamentSettings::ROUND_ROBIN);
    } else if (*v == "swiss") {
      s->set_system(v1::TournamentSettings::SWISS);
    } else {
      *why = "--system: round-robin or swiss";
      return false;
    }
  }
  if (std::optional<std::string> v = args.Value("swiss-method")) {
    *v = absl::AsciiStrToLower(*v);
    if (*v == "total-score") {
      s->set_swiss_method(v1::TournamentSettings::TOTAL_SCORE);
    } else if (*v == "points-then-opponents") {
      s->set_swiss_method(v1::TournamentSettings::POINTS_THEN_OPPONENTS);
    } else {
      *why = "--swiss-method: total-score or points-then-opponents";
      return false;
    }
  }
  return true;
}

// The EGD header's fields (kEgfClassFlag, kAdjustedTimeFlag, kCountryFlag,
// --location) into `s`, for create and import alike; a bad number is usage.
absl::Status SetEgdHeader(const Args& args, v1::TournamentSettings* s) {
  int adjusted_time = 0;
  if (absl::Status st = args.Number("adjusted-time", &adjusted_time); !st.ok()) return st;
  s->set_adjusted_time_minutes(adjusted_time);
  if (auto v = args.Value("egf-class")) s->set_egf_class(*v);
  if (auto v = args.Value("country")) s->set_country(*v);
  if (auto v = args.Value("location")) s->set_location(*v);
  return absl::OkStatus();
}

}  // namespace

const CommandSpec kTournamentCreate = {
    .name = "tournament create",
    .summary = "create a tournament: its system, settings and entrants",
    .flags = kTournamentCreateFlags,
};
const CommandSpec kTournamentImport = {
    .name = "tournament import",
    .positionals = "FILE.xml",
    .summary = "create a tournament from an OpenGotha XML file",
    .min_positionals = 1,
    .max_positionals = 1,
    .flags = kImportFlags,
};
const CommandSpec kTournamentPlayer = {
    .name = "tournament player",
    .positionals = "TOURNAMENT",
    .summary = "add players (and teams) to a tournament",
    .min_positionals = 1,
    .max_positionals = 1,
    .flags = kPlayerFlags,
};

int TournamentCreate(const Args& args) {
  const CommandSpec& spec = kTournamentCreate;
  v1::CreateTournamentRequest req;
  v1::TournamentCreated* c = req.mutable_tournament();
  v1::TournamentSettings* s = c->mutable_settings();
  std::string why;
  c->set_tournament_id(*args.Value("id"));
  c->set_title(args.ValueOr("title", c->tournament_id()));
  if (!SetSystem(args, s, &why)) return UsageError(spec, why);
  s->set_teams(args.Has("teams"));
  if (!SetTeamSettings(args, s, &why)) return UsageError(spec, why);
  int rounds = 0, cycles = 0, bye_points = 0;
  double komi = 3.75;
  for (const absl::Status& st : {args.Number("rounds", &rounds), args.Number("cycles", &cycles),
                                 args.Number("bye-points", &bye_points), args.Number("komi", &komi),
                                 SetEgdHeader(args, s)}) {
    if (!st.ok()) return UsageError(spec, st.message());
  }
  s->set_rounds(rounds);
  s->set_cycles(cycles);
  s->set_bye_points(bye_points);
  s->set_komi(komi);
  if (auto v = args.Value("ruleset")) s->set_ruleset(*v);
  // What `tournament start-round` creates the round's games with.
  if (args.Has("main-time") || args.Has("byo-yomi")) {
    if (!ParseTimeControlFlags(args, s->mutable_time_control(), &why)) {
      return UsageError(spec, why);
    }
  }
  v1::GameCreated::Venue venue = v1::GameCreated::VENUE_UNSPECIFIED;
  if (!ParseVenueFlag(args, &venue, &why)) return UsageError(spec, why);
  s->set_venue(venue);
  s->set_live_games(args.Has("live"));
  if (auto v = args.Value("dates")) {
    std::vector<std::string> d = absl::StrSplit(*v, absl::MaxSplits(',', 1));
    s->set_begin_date(d[0]);
    s->set_end_date(d.size() > 1 ? d[1] : d[0]);
  }
  if (!AddEntrants(args, req.mutable_players(), req.mutable_teams(), &why)) {
    return UsageError(spec, why);
  }
  return CallAndPrint(spec, args, &v1::TournamentService::Stub::CreateTournament, req);
}

int TournamentImport(const Args& args) {
  const CommandSpec& spec = kTournamentImport;
  v1::ImportTournamentRequest req;
  req.set_tournament_id(*args.Value("id"));
  std::string why;
  v1::TournamentSettings* s = req.mutable_settings();
  if (!SetSystem(args, s, &why)) return UsageError(spec, why);
  if (absl::Status st = SetEgdHeader(args, s); !st.ok()) return UsageError(spec, st.message());
  const std::string& path = args.positionals()[0];
  absl::StatusOr<std::string> xml = ReadInput(path);
  if (!xml.ok()) {
    return Complain("tournament import", absl::StrCat(path, ": ", xml.status().message()),
                    ExitCodeOf(xml.status()));
  }
  req.set_opengotha_xml(*std::move(xml));
  return CallAndPrint(spec, args, &v1::TournamentService::Stub::ImportTournament, req);
}

int TournamentPlayer(const Args& args) {
  const CommandSpec& spec = kTournamentPlayer;
  v1::AddPlayersRequest req;
  std::string why;
  if (!AddEntrants(args, req.mutable_players(), req.mutable_teams(), &why)) {
    return UsageError(spec, why);
  }
  req.set_tournament(TournamentName(args));
  return CallAndPrint(spec, args, &v1::TournamentService::Stub::AddPlayers, req);
}

}  // namespace arbiter::cli
