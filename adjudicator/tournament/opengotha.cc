#include "adjudicator/tournament/opengotha.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "adjudicator/tournament/corrections.h"
#include "adjudicator/tournament/fold.h"
#include "adjudicator/tournament/names.h"
#include "adjudicator/tournament/scoring.h"
#include "adjudicator/tournament/xml.h"

namespace arbiter::tournament {
namespace {

using v1::Result;

// Gotha.MAX_NUMBER_OF_ROUNDS: the rounds OpenGotha holds (its bye and
// participation arrays have this many).
constexpr int kMaxRounds = 20;
// Player.MIN_RATING, Player.MAX_RATING.
constexpr int kMinRating = -900;
constexpr int kMaxRating = 2949;

std::string UpperAscii(absl::string_view s) {
  std::string out(s);
  for (char& c : out) c = absl::ascii_toupper(static_cast<unsigned char>(c));
  return out;
}

// The key reduced to what our ids allow.
std::string Reduced(absl::string_view key) {
  std::string out;
  for (char c : UpperAscii(key)) {
    if (absl::ascii_isalnum(static_cast<unsigned char>(c))) out.push_back(c);
  }
  return out.substr(0, 64);
}

absl::Status At(const XmlElement& e, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("line ", e.line, ": <", e.name, ">: ", why));
}

std::string Attr(const XmlElement& e, absl::string_view key) {
  const std::string* v = e.Attribute(key);
  return v == nullptr ? std::string() : *v;
}

absl::StatusOr<int> IntAttr(const XmlElement& e, absl::string_view key,
                            std::optional<int> fallback) {
  const std::string* v = e.Attribute(key);
  if (v == nullptr) {
    if (fallback.has_value()) return *fallback;
    return At(e, absl::StrCat("attribute ", key, " is required"));
  }
  int n = 0;
  if (!absl::SimpleAtoi(*v, &n))
    return At(e, absl::StrCat(key, "=\"", *v, "\" is not a whole number"));
  return n;
}

absl::StatusOr<std::pair<Result::Outcome, bool>> ParseResult(const XmlElement& e) {
  std::string r = Attr(e, "result");
  if (r.empty() || r == "RESULT_UNKNOWN") return std::pair{Result::OUTCOME_UNSPECIFIED, false};
  bool by_default = false;
  constexpr absl::string_view kByDef = "_BYDEF";
  if (r.size() > kByDef.size() && absl::EndsWith(r, kByDef)) {
    by_default = true;
    r.resize(r.size() - kByDef.size());
  }
  if (r == "RESULT_WHITEWINS") return std::pair{Result::WHITE_WINS, by_default};
  if (r == "RESULT_BLACKWINS") return std::pair{Result::BLACK_WINS, by_default};
  if (r == "RESULT_EQUAL") return std::pair{Result::DRAW, by_default};
  if (r == "RESULT_BOTHLOSE") return std::pair{Result::BOTH_LOSE, by_default};
  // No article gives it, but OpenGotha records it and reads it: kept as
  // entered, worth a win to each (rulings.proto, BOTH_WIN).
  if (r == "RESULT_BOTHWIN") return std::pair{Result::BOTH_WIN, by_default};
  return At(e, absl::StrCat("unknown result \"", Attr(e, "result"), "\""));
}

// Finds the one element named `name` anywhere below `root` (depth first),
// as OpenGotha's getElementsByTagName(name).item(0) does.
const XmlElement* FindDeep(const XmlElement& root, absl::string_view name) {
  for (const auto& c : root.children) {
    if (c->name == name) return c.get();
    if (const XmlElement* f = FindDeep(*c, name)) return f;
  }
  return nullptr;
}

// The key a file names a player by, as well as it can be computed: Java's
// upper case where known, else ASCII's (such a name is then found only if
// the file wrote it that way).
std::string KeyForLookup(absl::string_view name, absl::string_view first_name) {
  absl::StatusOr<std::string> key = OpenGothaKey(name, first_name);
  return key.ok() ? *key
                  : UpperAscii(absl::StrReplaceAll(absl::StrCat(name, first_name), {{" ", ""}}));
}

// Length as Java counts it (UTF-16 units), for OpenGotha's length checks.
size_t JavaLength(absl::string_view utf8) {
  size_t n = 0;
  for (char c : utf8) {
    const unsigned char b = static_cast<unsigned char>(c);
    if ((b & 0xC0) != 0x80) n += (b >= 0xF0) ? 2 : 1;
  }
  return n;
}

bool IsDate(absl::string_view d) {
  if (d.size() != 10 || d[4] != '-' || d[7] != '-') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(d[i]))) return false;
  }
  return true;
}

absl::Status Refuse(absl::string_view why) {
  return absl::FailedPreconditionError(absl::StrCat("OpenGotha XML: ", why));
}

}  // namespace

absl::StatusOr<std::string> OpenGothaKey(absl::string_view name, absl::string_view first_name) {
  return JavaUpperCase(absl::StrReplaceAll(absl::StrCat(name, first_name), {{" ", ""}}));
}

std::optional<int> OpenGothaRank(absl::string_view rank) {
  std::string s(absl::StripAsciiWhitespace(rank));
  if (s.empty()) return std::nullopt;
  char last = s.back();
  std::string number = s.substr(0, s.size() - 1);
  if (absl::ascii_isdigit(static_cast<unsigned char>(last))) {
    last = 'k';
    number = s;
  }
  int n = 0;
  if (number.empty() || !absl::SimpleAtoi(number, &n)) return std::nullopt;
  int r = 0;
  switch (last) {
    case 'k':
    case 'K':
      r = -n;
      break;
    case 'd':
    case 'D':
      r = n - 1;
      break;
    case 'p':
    case 'P':
      r = n <= 3 ? 6 : n <= 6 ? 7 : 8;
      break;
    default:
      r = -n;
      break;
  }
  return std::clamp(r, -30, 8);
}

int OpenGothaRatingFromRank(int rank) { return (rank + 30) * 100 - 900; }

absl::StatusOr<std::vector<v1::TournamentEvent>> ImportOpenGotha(
    absl::string_view xml, absl::string_view tournament_id,
    const v1::TournamentSettings& settings) {
  absl::StatusOr<std::unique_ptr<XmlElement>> doc = ParseXml(xml);
  if (!doc.ok()) return doc.status();
  const XmlElement& root = **doc;
  if (root.name != "Tournament") return At(root, "the root element must be <Tournament>");

  v1::TournamentCreated created;
  created.set_tournament_id(std::string(tournament_id));
  v1::TournamentSettings& s = *created.mutable_settings();
  s = settings;
  if (s.system() == v1::TournamentSettings::SYSTEM_UNSPECIFIED)
    s.set_system(v1::TournamentSettings::SWISS);
  created.set_title(std::string(tournament_id));
  if (const XmlElement* g = FindDeep(root, "GeneralParameterSet")) {
    if (std::string name = Attr(*g, "name"); !name.empty()) created.set_title(name);
    absl::StatusOr<int> rounds = IntAttr(*g, "numberOfRounds", 0);
    if (!rounds.ok()) return rounds.status();
    if (s.rounds() == 0) s.set_rounds(*rounds);
    if (s.begin_date().empty()) s.set_begin_date(Attr(*g, "beginDate"));
    if (s.end_date().empty()) s.set_end_date(Attr(*g, "endDate"));
    if (s.location().empty()) s.set_location(Attr(*g, "location"));
    if (std::string komi = Attr(*g, "komi"); !komi.empty() && s.komi() == 0) {
      double k = 0;
      if (!absl::SimpleAtod(komi, &k))
        return At(*g, absl::StrCat("komi=\"", komi, "\" is not a number"));
      s.set_komi(k / 2);  // OpenGotha counts komi in points, we in stones
    }
  }
  if (settings.system() == v1::TournamentSettings::SYSTEM_UNSPECIFIED) {
    // OpenGotha keeps no system (a round robin is paired by one of its
    // frames); the placement criteria say it: a round robin is ranked by the
    // defeated opponents' scores (art. 27's A, SODOSW) and not by the
    // opponents' (SOSW), as ExportOpenGotha writes it.
    bool sodosw = false, sosw = false;
    if (const XmlElement* pc = FindDeep(root, "PlacementCriteria")) {
      for (const XmlElement* c : pc->Children("PlacementCriterion")) {
        sodosw = sodosw || Attr(*c, "name") == "SODOSW";
        sosw = sosw || Attr(*c, "name") == "SOSW";
      }
    }
    if (sodosw && !sosw) s.set_system(v1::TournamentSettings::ROUND_ROBIN);
  }
  if (const XmlElement* g = FindDeep(root, "GeneralParameterSet");
      g != nullptr && settings.bye_points() == 0) {
    // A bye's value in OpenGotha's wins x 2: arbiter's game points for it.
    absl::StatusOr<int> bye = IntAttr(*g, "genNBW2ValueBye", 0);
    if (!bye.ok()) return bye.status();
    if (*bye >= 0 && *bye <= 2) s.set_bye_points(*bye);
  }
  const XmlElement* teams_el = root.Child("Teams");
  if (teams_el != nullptr && !teams_el->Children("Team").empty()) s.set_teams(true);

  std::vector<v1::TournamentEvent> events;
  events.emplace_back();
  *events.back().mutable_created() = created;

  // Players, and the keys games name them by.
  std::map<std::string, std::string> by_key;  // key and reduced key -> id
  std::vector<v1::TournamentPlayer> players;
  const XmlElement* players_el = root.Child("Players");
  if (players_el == nullptr) return At(root, "no <Players>");
  for (const XmlElement* pe : players_el->Children("Player")) {
    v1::TournamentPlayer p;
    p.set_name(Attr(*pe, "name"));
    p.set_first_name(Attr(*pe, "firstName"));
    if (p.name().empty()) return At(*pe, "attribute name is required");
    // OpenGotha's names are the ones its ASCII exports (EGD, AGA) write: in
    // Latin letters they are the romanized name too.
    if (IsPrintableAscii(p.name()) && IsPrintableAscii(p.first_name())) {
      p.set_romanized_family_name(p.name());
      p.set_romanized_given_name(p.first_name());
    }
    const std::string key = KeyForLookup(p.name(), p.first_name());
    std::string id = Reduced(key);
    for (const v1::TournamentPlayer& q : players) {
      if (KeyForLookup(q.name(), q.first_name()) == key) {
        return At(*pe, absl::StrCat("a second player with the key ", key));
      }
      if (q.id() == id) id.clear();  // reduces to a taken id: number it instead
    }
    if (id.empty()) id = absl::StrCat("P", players.size() + 1);
    p.set_id(id);
    p.set_rank(Attr(*pe, "rank"));
    if (pe->Attribute("rating") != nullptr && Attr(*pe, "ratingOrigin") != "INI") {
      absl::StatusOr<int> rating = IntAttr(*pe, "rating", std::nullopt);
      if (!rating.ok()) return rating.status();
      p.set_rating(*rating);
    }
    p.set_country(Attr(*pe, "country"));
    p.set_club(Attr(*pe, "club"));
    p.set_egf_pin(Attr(*pe, "egfPin"));
    p.set_aga_id(Attr(*pe, "agaId"));
    by_key[key] = id;
    by_key.emplace(Reduced(key), id);
    players.push_back(std::move(p));
  }
  auto resolve = [&](const XmlElement& e, absl::string_view attr) -> absl::StatusOr<std::string> {
    const std::string ref = Attr(e, attr);
    if (ref.empty()) return At(e, absl::StrCat("attribute ", attr, " is required"));
    auto it = by_key.find(ref);
    if (it == by_key.end()) it = by_key.find(UpperAscii(ref));
    if (it == by_key.end() && !Reduced(ref).empty()) it = by_key.find(Reduced(ref));
    if (it == by_key.end()) return At(e, absl::StrCat(attr, "=\"", ref, "\" names no player"));
    return it->second;
  };
  auto player = [&](const std::string& id) -> v1::TournamentPlayer& {
    return *std::find_if(players.begin(), players.end(),
                         [&](const v1::TournamentPlayer& p) { return p.id() == id; });
  };

  // Teams: each player's team, and their board in each round (0: every
  // round, OpenGotha's files before 3.28.04).
  std::map<std::pair<int, std::string>, int> board_in_round;  // (round, player) -> board
  std::map<std::string, std::set<int>> boards_of;             // player -> the boards they held
  if (s.teams()) {
    std::set<std::string> numbers;
    for (const XmlElement* te : teams_el->Children("Team")) {
      absl::StatusOr<int> number = IntAttr(*te, "teamNumber", std::nullopt);
      if (!number.ok()) return number.status();
      v1::TournamentTeam team;
      team.set_id(absl::StrCat("T", *number));
      team.set_name(Attr(*te, "teamName"));
      if (!numbers.insert(team.id()).second)
        return At(*te, absl::StrCat("teamNumber ", *number, " twice"));
      for (const XmlElement* be : te->Children("Board")) {
        absl::StatusOr<std::string> id = resolve(*be, "player");
        if (!id.ok()) return id.status();
        absl::StatusOr<int> board = IntAttr(*be, "boardNumber", std::nullopt);
        if (!board.ok()) return board.status();
        if (*board < 1) return At(*be, "boardNumber must be 1 or more");
        absl::StatusOr<int> round = IntAttr(*be, "roundNumber", 0);
        if (!round.ok()) return round.status();
        if (*round < 0) return At(*be, "roundNumber must be 1 or more");
        v1::TournamentPlayer& p = player(*id);
        if (!p.team().empty() && p.team() != team.id())
          return At(*be, absl::StrCat(*id, " is in two teams"));
        p.set_team(team.id());
        board_in_round[{*round, *id}] = *board;
        boards_of[*id].insert(*board);
      }
      events.emplace_back();
      *events.back().mutable_team_added()->mutable_team() = team;
    }
    // A board of their own: one that never changed and no team-mate shares.
    std::map<std::pair<std::string, int>, int> holders;  // (team, board) -> players
    for (v1::TournamentPlayer& p : players) {
      if (boards_of[p.id()].size() == 1) p.set_board(*boards_of[p.id()].begin());
      if (p.board() != 0) ++holders[{p.team(), p.board()}];
    }
    for (v1::TournamentPlayer& p : players) {
      if (p.board() != 0 && holders[{p.team(), p.board()}] > 1) p.set_board(0);
    }
  }
  for (const v1::TournamentPlayer& p : players) {
    events.emplace_back();
    *events.back().mutable_player_added()->mutable_player() = p;
  }
  auto board_of = [&](const std::string& id, int round) {
    auto it = board_in_round.find({round, id});
    if (it == board_in_round.end()) it = board_in_round.find({0, id});
    return it == board_in_round.end() ? 0 : it->second;
  };

  // Rounds: games and byes.
  std::map<int, v1::TournamentRound> rounds;
  if (const XmlElement* games = root.Child("Games")) {
    for (const XmlElement* ge : games->Children("Game")) {
      absl::StatusOr<int> round = IntAttr(*ge, "roundNumber", std::nullopt);
      if (!round.ok()) return round.status();
      if (*round < 1) return At(*ge, "roundNumber must be 1 or more");
      absl::StatusOr<int> table = IntAttr(*ge, "tableNumber", std::nullopt);
      if (!table.ok()) return table.status();
      absl::StatusOr<int> handicap = IntAttr(*ge, "handicap", 0);
      if (!handicap.ok()) return handicap.status();
      absl::StatusOr<std::string> white = resolve(*ge, "whitePlayer");
      if (!white.ok()) return white.status();
      absl::StatusOr<std::string> black = resolve(*ge, "blackPlayer");
      if (!black.ok()) return black.status();
      absl::StatusOr<std::pair<Result::Outcome, bool>> result = ParseResult(*ge);
      if (!result.ok()) return result.status();
      v1::Pairing p;
      p.set_round(*round);
      p.set_board(*table);
      p.set_black(*black);
      p.set_white(*white);
      p.set_handicap(*handicap);
      p.set_entered_outcome(result->first);
      p.set_entered_by_default(result->second);
      if (s.teams()) {
        // OpenGotha's importer takes each game as it is, whatever boards
        // its players hold (importGamesFromXMLFile compares none): a game
        // across boards counts for each team on its own player's board, a
        // game of team-mates for no match (standings.h).
        const int b = board_of(*black, *round);
        const int w = board_of(*white, *round);
        p.set_team_board(b == w || w == 0 ? b : b == 0 ? w : 0);
      }
      v1::TournamentRound& r = rounds[*round];
      r.set_round(*round);
      for (const v1::Pairing& q : r.pairings()) {
        if (q.board() == p.board())
          return At(*ge, absl::StrCat("round ", *round, " table ", *table, " twice"));
      }
      *r.add_pairings() = std::move(p);
    }
  }
  if (const XmlElement* byes = root.Child("ByePlayers")) {
    for (const XmlElement* be : byes->Children("ByePlayer")) {
      absl::StatusOr<int> round = IntAttr(*be, "roundNumber", std::nullopt);
      if (!round.ok()) return round.status();
      if (*round < 1) return At(*be, "roundNumber must be 1 or more");
      absl::StatusOr<std::string> id = resolve(*be, "player");
      if (!id.ok()) return id.status();
      rounds[*round].set_round(*round);
      rounds[*round].add_byes(*id);
    }
  }
  for (auto& [n, r] : rounds) {
    events.emplace_back();
    *events.back().mutable_round_paired()->mutable_round() = std::move(r);
  }
  // The file must make a consistent tournament: fold it to be sure.
  if (absl::StatusOr<v1::Tournament> t = Fold(events); !t.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("the file is inconsistent: ", t.status().message()));
  }
  return events;
}

std::string OpenGothaResult(const v1::ScoredPairing& p) {
  if (p.status() == v1::ScoredPairing::PENDING || p.status() == v1::ScoredPairing::MISMATCH) {
    return "RESULT_UNKNOWN";
  }
  if (p.status() == v1::ScoredPairing::VOID) return "RESULT_BOTHLOSE_BYDEF";
  std::string r;
  switch (p.outcome()) {
    case Result::BLACK_WINS:
      r = "RESULT_BLACKWINS";
      break;
    case Result::WHITE_WINS:
      r = "RESULT_WHITEWINS";
      break;
    case Result::DRAW:
      r = "RESULT_EQUAL";
      break;
    case Result::BOTH_WIN:
      r = "RESULT_BOTHWIN";
      break;
    default:
      r = "RESULT_BOTHLOSE";
      break;  // BOTH_LOSE, NO_RESULT
  }
  if (p.by_default()) r += "_BYDEF";
  return r;
}

absl::StatusOr<std::string> ExportOpenGotha(const v1::Tournament& t,
                                            const v1::StandingsReport& report) {
  const v1::TournamentSettings& s = t.settings();
  int last_round = 0;
  for (const v1::TournamentRound& r : t.rounds()) last_round = std::max(last_round, r.round());
  const int rounds = std::max({1, s.rounds(), last_round});
  if (rounds > kMaxRounds) {
    return Refuse(absl::StrCat("the tournament has ", rounds, " rounds; OpenGotha holds at most ",
                               kMaxRounds));
  }
  for (const std::string* d : {&s.begin_date(), &s.end_date()}) {
    if (!d->empty() && !IsDate(*d))
      return Refuse(absl::StrCat("date \"", *d, "\" is not YYYY-MM-DD"));
  }

  // Players: OpenGotha's Player constructor refuses an empty first name, a
  // country of other than 0 or 2 characters and a club of more than 4.
  std::map<std::string, std::string> key;
  std::map<std::string, std::string> key_owner;
  std::string players;
  for (const v1::TournamentPlayer& p : t.players()) {
    const std::string who = absl::StrCat("player '", p.id(), "' (", NativeName(p), ")");
    const bool romanized = !p.romanized_family_name().empty();
    const std::string& name = romanized ? p.romanized_family_name() : p.name();
    const std::string& first = romanized ? p.romanized_given_name() : p.first_name();
    if (first.empty()) {
      return Refuse(
          absl::StrCat(who,
                       " has no given name, and OpenGotha requires a first name of at least one "
                       "character (Player.java); give a romanized family and given name"));
    }
    absl::StatusOr<std::string> k = OpenGothaKey(name, first);
    if (!k.ok())
      return Refuse(absl::StrCat(
          who, ": OpenGotha's key for the name cannot be computed: ", k.status().message()));
    if (auto [at, fresh] = key_owner.emplace(*k, p.id()); !fresh) {
      return Refuse(absl::StrCat("players '", at->second, "' and '", p.id(),
                                 "' have the same OpenGotha key ", *k, " (OpenGotha keeps one)"));
    }
    key[p.id()] = *k;
    if (!p.country().empty() && (p.country().size() != 2 || !absl::ascii_isalpha(p.country()[0]) ||
                                 !absl::ascii_isalpha(p.country()[1]))) {
      return Refuse(absl::StrCat(who, ": country \"", p.country(),
                                 "\" is not two letters (OpenGotha requires it)"));
    }
    if (JavaLength(p.club()) > 4) {
      return Refuse(absl::StrCat(who, ": club \"", p.club(),
                                 "\" has more than 4 characters (OpenGotha's limit)"));
    }
    std::string rank_attrs;
    std::optional<int> rank = OpenGothaRank(p.rank());
    if (!p.rank().empty() && !rank.has_value()) {
      return Refuse(absl::StrCat(who, ": rank \"", p.rank(),
                                 "\" is not one OpenGotha reads (30K to 9D, 1P to 9P)"));
    }
    if (rank.has_value()) absl::StrAppend(&rank_attrs, " rank=\"", UpperAscii(p.rank()), "\"");
    if (p.has_rating()) {
      absl::StrAppend(&rank_attrs, " rating=\"", std::clamp(p.rating(), kMinRating, kMaxRating),
                      "\" ratingOrigin=\"MAN\"");
    } else if (rank.has_value()) {
      absl::StrAppend(&rank_attrs, " rating=\"", OpenGothaRatingFromRank(*rank),
                      "\" ratingOrigin=\"INI\"");
    }
    // Not participating: the rounds after a withdrawal the player has no game in.
    std::string participating(kMaxRounds, '1');
    if (const v1::PlayerWithdrawn* w = FindWithdrawal(t, p.id())) {
      for (int r = w->after_round() + 1; r <= kMaxRounds; ++r) {
        bool plays = false;
        for (const v1::ScoredPairing& sp : report.pairings()) {
          if (sp.round() == r && (sp.black() == p.id() || sp.white() == p.id())) plays = true;
        }
        if (!plays) participating[r - 1] = '0';
      }
    }
    absl::StrAppend(&players, "<Player agaExpirationDate=\"\" agaId=\"", XmlEscape(p.aga_id()),
                    "\" club=\"", XmlEscape(p.club()), "\" country=\"", XmlEscape(p.country()),
                    "\" egfPin=\"", XmlEscape(p.egf_pin()),
                    "\" ffgLicence=\"\" ffgLicenceStatus=\"\" firstName=\"", XmlEscape(first),
                    "\" name=\"", XmlEscape(name), "\" participating=\"", participating, "\"",
                    rank_attrs, " registeringStatus=\"FIN\" smmsCorrection=\"0\"/>\n");
  }

  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n";
  // The director's corrections, as comments OpenGotha skips ("--" may not
  // stand inside one).
  for (const std::string& c : CorrectionLines(t, false)) {
    absl::StrAppend(&out, "<!-- correction ", absl::StrReplaceAll(c, {{"--", "- -"}}), " -->\n");
  }
  absl::StrAppend(&out, "<Tournament dataVersion=\"201\">\n<Players>\n", players,
                  "</Players>\n<Games>\n");
  int max_handicap = 0;
  for (const v1::ScoredPairing& sp : report.pairings()) {
    if (sp.round() == 0) continue;  // never paired: no round to write it in
    const v1::Pairing* p = FindPairing(t, sp.round(), sp.board());
    const int handicap = p == nullptr ? 0 : p->handicap();
    max_handicap = std::max(max_handicap, handicap);
    absl::StrAppend(&out, "<Game blackPlayer=\"", XmlEscape(key[sp.black()]), "\" handicap=\"",
                    handicap, "\" knownColor=\"true\" result=\"", OpenGothaResult(sp),
                    "\" roundNumber=\"", sp.round(), "\" tableNumber=\"", sp.board(),
                    "\" whitePlayer=\"", XmlEscape(key[sp.white()]), "\"/>\n");
  }
  out += "</Games>\n";
  // ExternalDocument.importByePlayersFromXMLFile keeps one bye per round.
  std::string byes;
  for (const v1::TournamentRound& r : t.rounds()) {
    if (r.byes_size() > 1) {
      return Refuse(absl::StrCat("round ", r.round(), " has ", r.byes_size(), " byes (",
                                 absl::StrJoin(r.byes(), ", "),
                                 "); OpenGotha keeps one bye player a round"));
    }
    for (const std::string& id : r.byes()) {
      absl::StrAppend(&byes, "<ByePlayer player=\"", XmlEscape(key[id]), "\" roundNumber=\"",
                      r.round(), "\"/>\n");
    }
  }
  if (!byes.empty()) absl::StrAppend(&out, "<ByePlayers>\n", byes, "</ByePlayers>\n");
  int team_size = 1;
  if (s.teams()) {
    out += "<Teams>\n";
    for (int i = 0; i < t.teams_size(); ++i) {
      absl::StrAppend(&out, "<Team teamName=\"", XmlEscape(t.teams(i).name()), "\" teamNumber=\"",
                      i + 1, "\">\n");
      for (int r = 1; r <= rounds; ++r) {
        // The boards played this round, then the players' own boards left free.
        std::map<int, std::string> lineup;  // board -> player
        for (const v1::TournamentRound& tr : t.rounds()) {
          for (const v1::Pairing& pp : tr.pairings()) {
            if (tr.round() != r || pp.team_board() <= 0) continue;
            for (const std::string* id : {&pp.black(), &pp.white()}) {
              const v1::TournamentPlayer* p = FindPlayer(t, *id);
              if (p->team() == t.teams(i).id()) lineup[pp.team_board()] = *id;
            }
          }
        }
        for (const v1::TournamentPlayer& p : t.players()) {
          if (p.team() != t.teams(i).id() || p.board() <= 0) continue;
          bool placed = false;
          for (const auto& [board, id] : lineup) placed = placed || id == p.id();
          if (!placed) lineup.emplace(p.board(), p.id());
        }
        for (const auto& [board, id] : lineup) {
          team_size = std::max(team_size, board);
          absl::StrAppend(&out, "<Board boardNumber=\"", board, "\" player=\"", XmlEscape(key[id]),
                          "\" roundNumber=\"", r, "\"/>\n");
        }
      }
      out += "</Team>\n";
    }
    out += "</Teams>\n";
  }

  // TournamentParameterSet: importTournamentParameterSetFromXMLFile reads
  // GeneralParameterSet, HandicapParameterSet, PlacementParameterSet and
  // PairingParameterSet without checking they exist.
  const bool swiss = s.system() == v1::TournamentSettings::SWISS;
  std::string dates;
  if (!s.begin_date().empty()) absl::StrAppend(&dates, " beginDate=\"", s.begin_date(), "\"");
  if (!s.end_date().empty()) absl::StrAppend(&dates, " endDate=\"", s.end_date(), "\"");
  absl::StrAppend(
      &out, "<TournamentParameterSet>\n<GeneralParameterSet basicTime=\"0\"", dates,
      " complementaryTimeSystem=\"SUDDENDEATH\" director=\"\" "
      "genCountNotPlayedGamesAsHalfPoint=\"false\""
      " genMMBar=\"9D\" genMMFloor=\"30K\" genMMS2ValueAbsent=\"0\" genMMS2ValueBye=\"",
      s.bye_points(), "\" genMMZero=\"30K\" genNBW2ValueAbsent=\"0\" genNBW2ValueBye=\"",
      s.bye_points(), "\" genRoundDownNBWMMS=\"true\" komi=\"", absl::StrFormat("%g", s.komi() * 2),
      "\" location=\"", XmlEscape(s.location()), "\" name=\"", XmlEscape(t.title()),
      "\" numberOfCategories=\"1\" numberOfRounds=\"", rounds, "\" shortName=\"",
      XmlEscape(t.tournament_id()), "\" size=\"19\"/>\n");
  // The handicaps are the pairings' own: OpenGotha is told none is computed.
  absl::StrAppend(&out, "<HandicapParameterSet hdBasedOnMMS=\"false\" hdCeiling=\"", max_handicap,
                  "\" hdCorrection=\"0\" hdNoHdRankThreshold=\"30K\"/>\n");
  // Art. 27 as near as OpenGotha's criteria come: number of wins (half the
  // points), then the defeated opponents' scores (A, 胜者小分) for a round
  // robin, the opponents' scores for a Swiss event.
  const std::vector<std::string> criteria = swiss
                                                ? std::vector<std::string>{"NBW", "SOSW", "SOSOSW"}
                                                : std::vector<std::string>{"NBW", "SODOSW"};
  out += "<PlacementParameterSet>\n<PlacementCriteria>\n";
  for (int c = 0; c < 6; ++c) {
    absl::StrAppend(&out, "<PlacementCriterion name=\"",
                    c < static_cast<int>(criteria.size()) ? criteria[c] : "NULL", "\" number=\"",
                    c + 1, "\"/>\n");
  }
  out += "</PlacementCriteria>\n</PlacementParameterSet>\n";
  // OpenGotha's own defaults (those importTournamentParameterSetFromXMLFile
  // falls back to), written out.
  out +=
      "<PairingParameterSet paiBaAvoidDuplGame=\"500000000000000\" paiBaBalanceWB=\"1000\" "
      "paiBaDeterministic=\"true\" paiBaRandom=\"0\" "
      "paiMaAdditionalPlacementCritSystem1=\"Rating\" "
      "paiMaAdditionalPlacementCritSystem2=\"NULL\" paiMaAvoidMixingCategories=\"20000000000000\" "
      "paiMaCompensateDUDD=\"true\" paiMaDUDDLowerMode=\"MID\" paiMaDUDDUpperMode=\"MID\" "
      "paiMaDUDDWeight=\"100000000\" paiMaLastRoundForSeedSystem1=\"2\" "
      "paiMaMaximizeSeeding=\"5000000\" "
      "paiMaMinimizeScoreDifference=\"100000000000\" paiMaSeedSystem1=\"SPLITANDRANDOM\" "
      "paiMaSeedSystem2=\"SPLITANDFOLD\" paiSeAvoidSameGeo=\"100000000000\" "
      "paiSeBarThresholdActive=\"true\" "
      "paiSeDefSecCrit=\"100000000000\" paiSeMinimizeHandicap=\"0\" "
      "paiSeNbWinsThresholdActive=\"true\" "
      "paiSePreferMMSDiffRatherThanSameClub=\"3\" paiSePreferMMSDiffRatherThanSameClubsGroup=\"2\" "
      "paiSePreferMMSDiffRatherThanSameCountry=\"1\" paiSeRankThreshold=\"4D\" "
      "paiStandardNX1Factor=\"0.5\"/>\n"
      "</TournamentParameterSet>\n";
  if (s.teams()) {
    // importTeamTournamentParameterSetFromXMLFile reads both inner sets
    // without checking them once the outer one is there.
    absl::StrAppend(&out, "<TeamTournamentParameterSet>\n<TeamGeneralParameterSet teamSize=\"",
                    team_size, "\"/>\n<TeamPlacementParameterSet>\n<PlacementCriteria>\n");
    const std::vector<std::string> team_criteria = {"TEAMP", "BDW"};
    for (int c = 0; c < 6; ++c) {
      absl::StrAppend(&out, "<PlacementCriterion name=\"", c < 2 ? team_criteria[c] : "NULL",
                      "\" number=\"", c + 1, "\"/>\n");
    }
    out += "</PlacementCriteria>\n</TeamPlacementParameterSet>\n</TeamTournamentParameterSet>\n";
  }
  out += "</Tournament>\n";
  return out;
}

}  // namespace arbiter::tournament
