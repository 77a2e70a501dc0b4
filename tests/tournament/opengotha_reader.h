// What OpenGotha's File > Open (ExternalDocument.importTournamentFromXMLFile,
// OpenGotha 3.x) requires of a file, checked element by element the way it
// reads them, so a test can tell whether OpenGotha would open a file whole.
// Each check names the Java it mirrors:
//  - importPlayersFromXMLFile: every <Player> anywhere; the Player
//    constructor (Player.java) throws on an empty name or first name, a
//    country of 1 or more than 2 characters, a club of more than 4; the
//    exception leaves `p` null and p.setParticipating() throws, so the whole
//    import fails. rating and smmsCorrection go through Integer.parseInt.
//  - importTournamentParameterSetFromXMLFile: once a <TournamentParameterSet>
//    exists, the first <GeneralParameterSet>, <HandicapParameterSet>,
//    <PlacementParameterSet> and <PairingParameterSet> are read without a
//    null check; their numbers through parseInt/parseLong/parseDouble;
//    PlacementCriterion numbers index an array of 6; dates through
//    GothaDate.parse("yyyy-MM-dd").
//  - importGamesFromXMLFile / importByePlayersFromXMLFile /
//    importTeamsFromXMLFile: a player reference that matches no key string
//    (name + first name, spaces removed, upper case) is skipped silently; a
//    round indexes an array of 20; a second bye in a round replaces the first.
//  - importTeamTournamentParameterSetFromXMLFile: once a
//    <TeamTournamentParameterSet> exists, <TeamGeneralParameterSet> and
//    <TeamPlacementParameterSet> are read without a null check.
// Anything that would throw, or be dropped silently, is a problem.
#ifndef ARBITER_TESTS_TOURNAMENT_OPENGOTHA_READER_H_
#define ARBITER_TESTS_TOURNAMENT_OPENGOTHA_READER_H_

#include <cctype>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/tournament/xml.h"

namespace arbiter::tournament::testing {

class OpenGothaReader {
 public:
  // The problems OpenGotha would have with `xml`; empty when it opens whole.
  static std::vector<std::string> Problems(const std::string& xml) {
    OpenGothaReader r;
    absl::StatusOr<std::unique_ptr<XmlElement>> doc = ParseXml(xml);
    if (!doc.ok()) return {absl::StrCat("not XML: ", doc.status().message())};
    r.Check(**doc);
    return r.problems_;
  }

  // OpenGotha's key string for ASCII names (Player.computeKeyString).
  static std::string Key(const std::string& name, const std::string& first) {
    std::string key;
    for (char c : name + first) {
      if (c != ' ') key.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
    }
    return key;
  }

 private:
  static void All(const XmlElement& e, const std::string& name,
                  std::vector<const XmlElement*>* out) {
    for (const auto& c : e.children) {
      if (c->name == name) out->push_back(c.get());
      All(*c, name, out);
    }
  }
  static std::vector<const XmlElement*> All(const XmlElement& root, const std::string& name) {
    std::vector<const XmlElement*> out;
    if (root.name == name) out.push_back(&root);
    All(root, name, &out);
    return out;
  }
  static std::string Value(const XmlElement& e, const std::string& attr,
                           const std::string& fallback) {
    const std::string* v = e.Attribute(attr);
    return v == nullptr ? fallback : *v;
  }
  void Problem(const XmlElement& e, const std::string& why) {
    problems_.push_back(absl::StrCat("line ", e.line, " <", e.name, ">: ", why));
  }
  void Int(const XmlElement& e, const std::string& attr, const std::string& fallback) {
    int n = 0;
    if (!absl::SimpleAtoi(Value(e, attr, fallback), &n))
      Problem(e, absl::StrCat(attr, ": Integer.parseInt throws"));
  }
  void Long(const XmlElement& e, const std::string& attr, const std::string& fallback) {
    int64_t n = 0;
    if (!absl::SimpleAtoi(Value(e, attr, fallback), &n))
      Problem(e, absl::StrCat(attr, ": Long.parseLong throws"));
  }
  void Date(const XmlElement& e, const std::string& attr) {
    const std::string* d = e.Attribute(attr);
    if (d == nullptr) return;  // the current date
    bool ok = d->size() == 10 && (*d)[4] == '-' && (*d)[7] == '-';
    for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) ok = ok && d->size() == 10 && std::isdigit((*d)[i]);
    if (!ok) Problem(e, absl::StrCat(attr, "=\"", *d, "\" is not yyyy-MM-dd"));
  }
  void Criteria(const XmlElement& set) {
    for (const XmlElement* c : All(set, "PlacementCriterion")) {
      int n = 0;
      if (!absl::SimpleAtoi(Value(*c, "number", "1"), &n) || n < 1 || n > 6)
        Problem(*c, "number outside 1..6");
    }
  }
  void Round(const XmlElement& e, const std::string& attr, const std::string& fallback, int low) {
    int n = 0;
    if (!absl::SimpleAtoi(Value(e, attr, fallback), &n) || n < low || n > 20) {
      Problem(e, absl::StrCat(attr, " outside the 20 rounds OpenGotha holds"));
    }
  }
  void Resolves(const XmlElement& e, const std::string& attr) {
    if (keys_.count(Value(e, attr, "")) == 0)
      Problem(e, absl::StrCat(attr, " names no player: skipped"));
  }

  void Check(const XmlElement& root) {
    if (root.name != "Tournament") Problem(root, "the root is not <Tournament>");
    Long(root, "dataVersion", "200");
    if (Value(root, "dataVersion", "200") < "201")
      Problem(root, "dataVersion <= 200: keys read the old way");
    for (const XmlElement* p : All(root, "Player")) {
      const std::string name = Value(*p, "name", "");
      const std::string first = Value(*p, "firstName", "");
      if (name.empty()) Problem(*p, "Player's name should have at least 1 character");
      if (first.empty()) Problem(*p, "Player's first name should have at least 1 character");
      const size_t country = Value(*p, "country", "").size();
      if (country == 1 || country > 2)
        Problem(*p, "Country name should either have 2 characters or be absent");
      if (Value(*p, "club", "").size() > 4)
        Problem(*p, "Club name should have at most 4 character");
      Int(*p, "rating", "-900");
      Int(*p, "smmsCorrection", "0");
      if (!keys_.insert(Key(name, first)).second)
        Problem(*p, "a second player with this key string");
    }
    for (const XmlElement* g : All(root, "Game")) {
      Round(*g, "roundNumber", "1", 1);
      Int(*g, "tableNumber", "1");
      Int(*g, "handicap", "0");
      Resolves(*g, "whitePlayer");
      Resolves(*g, "blackPlayer");
      static const std::set<std::string> kResults = {
          "RESULT_UNKNOWN",         "RESULT_WHITEWINS",       "RESULT_BLACKWINS",
          "RESULT_EQUAL",           "RESULT_BOTHLOSE",        "RESULT_BOTHWIN",
          "RESULT_WHITEWINS_BYDEF", "RESULT_BLACKWINS_BYDEF", "RESULT_EQUAL_BYDEF",
          "RESULT_BOTHLOSE_BYDEF",  "RESULT_BOTHWIN_BYDEF"};
      if (kResults.count(Value(*g, "result", "RESULT_UNKNOWN")) == 0)
        Problem(*g, "result read as RESULT_UNKNOWN");
    }
    std::map<std::string, int> byes;
    for (const XmlElement* b : All(root, "ByePlayer")) {
      Round(*b, "roundNumber", "1", 1);
      Resolves(*b, "player");
      if (++byes[Value(*b, "roundNumber", "1")] > 1)
        Problem(*b, "a second bye this round replaces the first");
    }
    for (const XmlElement* t : All(root, "Team")) {
      Int(*t, "teamNumber", "1");
      for (const auto& b : t->children) {
        if (b->name != "Board") continue;
        Round(*b, "roundNumber", "0", 0);
        Int(*b, "boardNumber", "1");
        Resolves(*b, "player");
      }
    }
    if (!All(root, "TournamentParameterSet").empty()) {
      const std::vector<const XmlElement*> general = All(root, "GeneralParameterSet");
      if (general.empty()) {
        Problem(root, "no GeneralParameterSet: NullPointerException");
      } else {
        const XmlElement& g = *general[0];
        Date(g, "beginDate");
        Date(g, "endDate");
        Int(g, "numberOfRounds", "5");
        Int(g, "numberOfCategories", "1");
        for (const char* a :
             {"genNBW2ValueAbsent", "genNBW2ValueBye", "genMMS2ValueAbsent", "genMMS2ValueBye"}) {
          Int(g, a, "0");
        }
      }
      const std::vector<const XmlElement*> handicap = All(root, "HandicapParameterSet");
      if (handicap.empty()) {
        Problem(root, "no HandicapParameterSet: NullPointerException");
      } else {
        Int(*handicap[0], "hdCorrection", "1");
        Int(*handicap[0], "hdCeiling", "9");
      }
      const std::vector<const XmlElement*> placement = All(root, "PlacementParameterSet");
      if (placement.empty()) {
        Problem(root, "no PlacementParameterSet: NullPointerException");
      } else {
        Criteria(*placement[0]);
      }
      const std::vector<const XmlElement*> pairing = All(root, "PairingParameterSet");
      if (pairing.empty()) {
        Problem(root, "no PairingParameterSet: NullPointerException");
      } else {
        const XmlElement& p = *pairing[0];
        double d = 0;
        if (!absl::SimpleAtod(Value(p, "paiStandardNX1Factor", "0.5"), &d))
          Problem(p, "Double.parseDouble throws");
        for (const auto& [a, def] : std::vector<std::pair<const char*, const char*>>{
                 {"paiBaAvoidDuplGame", "500000000000000"},
                 {"paiBaRandom", "0"},
                 {"paiBaBalanceWB", "1000"},
                 {"paiMaAvoidMixingCategories", "20000000000000"},
                 {"paiMaMinimizeScoreDifference", "100000000000"},
                 {"paiMaDUDDWeight", "100000000"},
                 {"paiMaMaximizeSeeding", "5000000"},
                 {"paiSeDefSecCrit", "100000000000"},
                 {"paiSeMinimizeHandicap", "0"},
                 {"paiSeAvoidSameGeo", "100000000000"}}) {
          Long(p, a, def);
        }
        Int(p, "paiMaLastRoundForSeedSystem1", "2");
        Int(p, "paiSePreferMMSDiffRatherThanSameCountry", "1");
        Int(p, "paiSePreferMMSDiffRatherThanSameClubsGroup", "2");
        Int(p, "paiSePreferMMSDiffRatherThanSameClub", "3");
      }
    }
    if (!All(root, "TeamTournamentParameterSet").empty()) {
      const std::vector<const XmlElement*> general = All(root, "TeamGeneralParameterSet");
      if (general.empty()) {
        Problem(root, "no TeamGeneralParameterSet: NullPointerException");
      } else {
        Int(*general[0], "teamSize", "4");
      }
      const std::vector<const XmlElement*> placement = All(root, "TeamPlacementParameterSet");
      if (placement.empty()) {
        Problem(root, "no TeamPlacementParameterSet: NullPointerException");
      } else {
        Criteria(*placement[0]);
      }
    }
  }

  std::set<std::string> keys_;
  std::vector<std::string> problems_;
};

}  // namespace arbiter::tournament::testing

#endif  // ARBITER_TESTS_TOURNAMENT_OPENGOTHA_READER_H_
