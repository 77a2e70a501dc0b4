#include "adjudicator/tournament/opengotha.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "adjudicator/tournament/fold.h"
#include "adjudicator/tournament/xml.h"

namespace arbiter::tournament {
namespace {

using v1::Result;

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

absl::StatusOr<int> IntAttr(const XmlElement& e, absl::string_view key, std::optional<int> fallback) {
  const std::string* v = e.Attribute(key);
  if (v == nullptr) {
    if (fallback.has_value()) return *fallback;
    return At(e, absl::StrCat("attribute ", key, " is required"));
  }
  int n = 0;
  if (!absl::SimpleAtoi(*v, &n)) return At(e, absl::StrCat(key, "=\"", *v, "\" is not a whole number"));
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
  if (r == "RESULT_BOTHWIN") return At(e, "RESULT_BOTHWIN has no meaning under the 2002 rules (art. 27: 2/1/0)");
  return At(e, absl::StrCat("unknown result \"", Attr(e, "result"), "\""));
}

// Finds the one element named `name` anywhere below `root` (depth first).
const XmlElement* FindDeep(const XmlElement& root, absl::string_view name) {
  for (const auto& c : root.children) {
    if (c->name == name) return c.get();
    if (const XmlElement* f = FindDeep(*c, name)) return f;
  }
  return nullptr;
}

}  // namespace

std::string OpenGothaKey(absl::string_view name, absl::string_view first_name) {
  return UpperAscii(absl::StrCat(name, first_name));
}

absl::StatusOr<std::vector<v1::TournamentEvent>> ImportOpenGotha(absl::string_view xml,
                                                                 absl::string_view tournament_id,
                                                                 const v1::TournamentSettings& settings) {
  absl::StatusOr<std::unique_ptr<XmlElement>> doc = ParseXml(xml);
  if (!doc.ok()) return doc.status();
  const XmlElement& root = **doc;
  if (root.name != "Tournament") return At(root, "the root element must be <Tournament>");

  v1::TournamentCreated created;
  created.set_tournament_id(std::string(tournament_id));
  v1::TournamentSettings& s = *created.mutable_settings();
  s = settings;
  if (s.system() == v1::TournamentSettings::SYSTEM_UNSPECIFIED) s.set_system(v1::TournamentSettings::SWISS);
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
      if (!absl::SimpleAtod(komi, &k)) return At(*g, absl::StrCat("komi=\"", komi, "\" is not a number"));
      s.set_komi(k / 2);  // OpenGotha counts komi in points, we in stones
    }
  }
  const XmlElement* teams_el = root.Child("Teams");
  if (teams_el != nullptr && !teams_el->Children("Team").empty()) s.set_teams(true);

  std::vector<v1::TournamentEvent> events;
  events.emplace_back();
  *events.back().mutable_created() = created;

  // Players, and the keys games name them by.
  std::map<std::string, std::string> by_key;  // upper key and reduced key -> id
  std::vector<v1::TournamentPlayer> players;
  const XmlElement* players_el = root.Child("Players");
  if (players_el == nullptr) return At(root, "no <Players>");
  for (const XmlElement* pe : players_el->Children("Player")) {
    v1::TournamentPlayer p;
    p.set_name(Attr(*pe, "name"));
    p.set_first_name(Attr(*pe, "firstName"));
    if (p.name().empty()) return At(*pe, "attribute name is required");
    const std::string key = OpenGothaKey(p.name(), p.first_name());
    std::string id = Reduced(key);
    for (const v1::TournamentPlayer& q : players) {
      if (OpenGothaKey(q.name(), q.first_name()) == key) {
        return At(*pe, absl::StrCat("a second player with the key ", key));
      }
      if (q.id() == id) id.clear();  // reduces to a taken id: number it instead
    }
    if (id.empty()) id = absl::StrCat("P", players.size() + 1);
    p.set_id(id);
    p.set_rank(Attr(*pe, "rank"));
    absl::StatusOr<int> rating = IntAttr(*pe, "rating", 0);
    if (!rating.ok()) return rating.status();
    p.set_rating(*rating);
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
    auto it = by_key.find(UpperAscii(ref));
    if (it == by_key.end() && !Reduced(ref).empty()) it = by_key.find(Reduced(ref));
    if (it == by_key.end()) return At(e, absl::StrCat(attr, "=\"", ref, "\" names no player"));
    return it->second;
  };

  // Teams: each player's team and board (the board of the first round that names them).
  if (s.teams()) {
    std::set<std::string> numbers;
    for (const XmlElement* te : teams_el->Children("Team")) {
      absl::StatusOr<int> number = IntAttr(*te, "teamNumber", std::nullopt);
      if (!number.ok()) return number.status();
      v1::TournamentTeam team;
      team.set_id(absl::StrCat("T", *number));
      team.set_name(Attr(*te, "teamName"));
      if (!numbers.insert(team.id()).second) return At(*te, absl::StrCat("teamNumber ", *number, " twice"));
      for (const XmlElement* be : te->Children("Board")) {
        absl::StatusOr<std::string> id = resolve(*be, "player");
        if (!id.ok()) return id.status();
        absl::StatusOr<int> board = IntAttr(*be, "boardNumber", std::nullopt);
        if (!board.ok()) return board.status();
        if (*board < 1) return At(*be, "boardNumber must be 1 or more");
        for (v1::TournamentPlayer& p : players) {
          if (p.id() != *id) continue;
          if (!p.team().empty() && p.team() != team.id()) {
            return At(*be, absl::StrCat(*id, " is in two teams"));
          }
          p.set_team(team.id());
          if (p.board() == 0) p.set_board(*board);
        }
      }
      events.emplace_back();
      *events.back().mutable_team_added()->mutable_team() = team;
    }
    for (const v1::TournamentPlayer& p : players) {
      if (p.team().empty()) return At(*teams_el, absl::StrCat("player ", p.id(), " is in no team"));
    }
  }
  for (const v1::TournamentPlayer& p : players) {
    events.emplace_back();
    *events.back().mutable_player_added()->mutable_player() = p;
  }

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
      v1::TournamentRound& r = rounds[*round];
      r.set_round(*round);
      for (const v1::Pairing& q : r.pairings()) {
        if (q.board() == p.board()) return At(*ge, absl::StrCat("round ", *round, " table ", *table, " twice"));
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
    return absl::InvalidArgumentError(absl::StrCat("the file is inconsistent: ", t.status().message()));
  }
  return events;
}

std::string OpenGothaResult(const v1::ScoredPairing& p) {
  if (p.status() == v1::ScoredPairing::PENDING) return "RESULT_UNKNOWN";
  if (p.status() == v1::ScoredPairing::VOID) return "RESULT_BOTHLOSE_BYDEF";
  std::string r;
  switch (p.outcome()) {
    case Result::BLACK_WINS: r = "RESULT_BLACKWINS"; break;
    case Result::WHITE_WINS: r = "RESULT_WHITEWINS"; break;
    case Result::DRAW: r = "RESULT_EQUAL"; break;
    default: r = "RESULT_BOTHLOSE"; break;  // BOTH_LOSE, NO_RESULT
  }
  if (p.by_default()) r += "_BYDEF";
  return r;
}

std::string ExportOpenGotha(const v1::Tournament& t, const v1::StandingsReport& report) {
  std::map<std::string, std::string> key;
  for (const v1::TournamentPlayer& p : t.players()) key[p.id()] = OpenGothaKey(p.name(), p.first_name());
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n";
  out += "<Tournament dataVersion=\"201\">\n<Players>\n";
  for (const v1::TournamentPlayer& p : t.players()) {
    absl::StrAppend(&out, "<Player agaId=\"", XmlEscape(p.aga_id()), "\" club=\"", XmlEscape(p.club()),
                    "\" country=\"", XmlEscape(p.country()), "\" egfPin=\"", XmlEscape(p.egf_pin()),
                    "\" firstName=\"", XmlEscape(p.first_name()), "\" name=\"", XmlEscape(p.name()),
                    "\" rank=\"", XmlEscape(p.rank()), "\" rating=\"", p.rating(),
                    "\" registeringStatus=\"FIN\"/>\n");
  }
  out += "</Players>\n<Games>\n";
  for (const v1::ScoredPairing& s : report.pairings()) {
    if (s.round() == 0) continue;  // never paired: no round to write it in
    const v1::Pairing* p = FindPairing(t, s.round(), s.board());
    absl::StrAppend(&out, "<Game blackPlayer=\"", XmlEscape(key[s.black()]), "\" handicap=\"",
                    p == nullptr ? 0 : p->handicap(), "\" knownColor=\"true\" result=\"", OpenGothaResult(s),
                    "\" roundNumber=\"", s.round(), "\" tableNumber=\"", s.board(), "\" whitePlayer=\"",
                    XmlEscape(key[s.white()]), "\"/>\n");
  }
  out += "</Games>\n";
  std::string byes;
  for (const v1::TournamentRound& r : t.rounds()) {
    for (const std::string& id : r.byes()) {
      absl::StrAppend(&byes, "<ByePlayer player=\"", XmlEscape(key[id]), "\" roundNumber=\"", r.round(), "\"/>\n");
    }
  }
  if (!byes.empty()) absl::StrAppend(&out, "<ByePlayers>\n", byes, "</ByePlayers>\n");
  if (t.settings().teams()) {
    const int rounds = std::max(t.settings().rounds(), t.rounds_size() == 0 ? 1 : t.rounds(t.rounds_size() - 1).round());
    out += "<Teams>\n";
    for (int i = 0; i < t.teams_size(); ++i) {
      absl::StrAppend(&out, "<Team teamName=\"", XmlEscape(t.teams(i).name()), "\" teamNumber=\"", i + 1, "\">\n");
      for (int r = 1; r <= rounds; ++r) {
        for (const v1::TournamentPlayer& p : t.players()) {
          if (p.team() != t.teams(i).id()) continue;
          absl::StrAppend(&out, "<Board boardNumber=\"", p.board(), "\" player=\"", XmlEscape(key[p.id()]),
                          "\" roundNumber=\"", r, "\"/>\n");
        }
      }
      out += "</Team>\n";
    }
    out += "</Teams>\n";
  }
  const v1::TournamentSettings& s = t.settings();
  absl::StrAppend(&out, "<TournamentParameterSet>\n<GeneralParameterSet beginDate=\"", XmlEscape(s.begin_date()),
                  "\" endDate=\"", XmlEscape(s.end_date()), "\" komi=\"", absl::StrFormat("%g", s.komi() * 2),
                  "\" location=\"", XmlEscape(s.location()), "\" name=\"", XmlEscape(t.title()),
                  "\" numberOfRounds=\"", s.rounds() > 0 ? s.rounds() : report.rounds(), "\" shortName=\"",
                  XmlEscape(t.tournament_id()), "\"/>\n</TournamentParameterSet>\n</Tournament>\n");
  return out;
}

}  // namespace arbiter::tournament
