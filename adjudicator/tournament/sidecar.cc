#include "adjudicator/tournament/sidecar.h"

#include "absl/strings/str_cat.h"
#include "adjudicator/tournament/corrections.h"
#include "adjudicator/tournament/export_formats.h"
#include "adjudicator/tournament/fold.h"
#include "adjudicator/tournament/scoring.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/type_resolver.h"
#include "google/protobuf/util/type_resolver_util.h"

namespace arbiter::tournament {
namespace {

using v1::ExportTournamentRequest;
using v1::ScoredPairing;

// How the format writes `p` (its row's exported_as), or "as in the report".
std::string ExportedAs(const ScoredPairing& p, ExportTournamentRequest::Format format) {
  const TournamentExportFormat* f = FindTournamentExport(format);
  return f != nullptr && f->exported_as != nullptr ? f->exported_as(p) : "as in the report";
}

void Fill(const ScoredPairing& p, v1::SidecarEntry* e) {
  e->set_round(p.round());
  e->set_board(p.board());
  e->set_black(p.black());
  e->set_white(p.white());
  e->set_game_id(p.game_id());
  e->set_outcome(p.outcome());
  e->set_reason(p.reason());
  e->set_clause(p.clause());
  e->set_by_default(p.by_default());
  e->set_note(p.note());
}

// The game's own entry: its deciding ruling's id, or its result's.
void GameEntry(const std::string& game_id, const ScoredPairing& p, const GameFactsMap& games,
               const std::string& exported_as, v1::ExportSidecar* out) {
  auto it = games.find(game_id);
  if (it == games.end() || !it->second.result.has_value()) return;
  const v1::Result& r = *it->second.result;
  std::string key = r.ruling() != 0 ? absl::StrCat("games/", game_id, "/rulings/", r.ruling())
                                    : absl::StrCat("games/", game_id, "/result");
  v1::SidecarEntry& e = (*out->mutable_entries())[key];
  Fill(p, &e);
  e.set_game_id(game_id);
  e.set_outcome(r.outcome());
  e.set_reason(r.reason());
  e.set_clause(r.clause());
  if (it->second.deciding_ruling.has_value()) {
    e.set_text_en(it->second.deciding_ruling->text_en());
    e.set_text_zh(it->second.deciding_ruling->text_zh());
  }
  e.set_exported_as(exported_as);
}

}  // namespace

v1::ExportSidecar BuildSidecar(const v1::Tournament& t, const v1::StandingsReport& report,
                               const GameFactsMap& games, ExportTournamentRequest::Format format) {
  v1::ExportSidecar out;
  out.set_tournament(t.name());
  out.set_format(ExportTournamentRequest::Format_Name(format));
  for (std::string& c : CorrectionLines(t, false)) out.add_corrections(std::move(c));
  for (const ScoredPairing& p : report.pairings()) {
    const v1::Pairing* paired = p.round() == 0 ? nullptr : FindPairing(t, p.round(), p.board());
    if (paired != nullptr) {
      for (const std::string& g : paired->replayed_game_ids()) {
        GameEntry(g, p, games, absl::StrCat("nothing: replayed by game ", paired->game_id()), &out);
      }
    }
    if (p.status() == ScoredPairing::FORFEIT || p.status() == ScoredPairing::VOID) {
      const std::string& who = FindWithdrawal(t, p.black()) != nullptr ? p.black() : p.white();
      std::string key = absl::StrCat(t.name(), "/withdrawals/", who, "/round/", p.round());
      absl::StrAppend(&key, p.round() == 0
                                ? absl::StrCat("/vs/", who == p.black() ? p.white() : p.black())
                                : absl::StrCat("/board/", p.board()));
      v1::SidecarEntry& e = (*out.mutable_entries())[key];
      Fill(p, &e);
      e.set_exported_as(ExportedAs(p, format));
      if (p.game_id().empty()) continue;
    }
    if (p.game_id().empty() && paired != nullptr &&
        paired->entered_outcome() != v1::Result::OUTCOME_UNSPECIFIED) {
      // An entered result (a director's from the paper score sheet, or an
      // imported file's) has no game or ruling to key it by, and is the one
      // place a NO_RESULT exported as a both-lose is explained.
      v1::SidecarEntry& e = (*out.mutable_entries())[absl::StrCat(t.name(), "/round/", p.round(),
                                                                  "/board/", p.board(), "/result")];
      Fill(p, &e);
      e.set_exported_as(ExportedAs(p, format));
    } else if (!p.game_id().empty() && p.status() != ScoredPairing::PENDING) {
      GameEntry(p.game_id(), p, games, ExportedAs(p, format), &out);
    } else if (!p.game_id().empty() && p.outcome() == v1::Result::REPLAY) {
      GameEntry(p.game_id(), p, games, "nothing yet: awaiting the replay", &out);
    }
  }
  // Each bye (no game, no ruling): what it was credited, and how the
  // format wrote it; a bye credited nothing says why.
  const TournamentExportFormat* f = FindTournamentExport(format);
  for (const v1::ScoredBye& b : ScoredByes(t)) {
    v1::SidecarEntry& e =
        (*out.mutable_entries())[absl::StrCat(t.name(), "/round/", b.round(), "/bye/", b.player())];
    e.set_round(b.round());
    e.set_bye(b.player());
    e.set_note(
        b.not_credited().empty()
            ? absl::StrCat("a bye: ", b.points(), " game point(s) credited (the bye setting)")
            : absl::StrCat("a bye credited nothing: ", b.not_credited()));
    e.set_exported_as(f != nullptr ? f->bye_exported_as(t, b) : "as in the report");
  }
  return out;
}

std::string SidecarJson(const v1::ExportSidecar& sidecar) {
  google::protobuf::util::JsonPrintOptions options;
  options.add_whitespace = true;
  options.preserve_proto_field_names = false;
  // Printed from the deterministic serialization, whose map entries are in
  // key order, so the same sidecar always prints the same bytes (printing
  // the message itself follows the map's hash order, which differs between
  // processes).
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    if (!sidecar.SerializeToCodedStream(&coded)) return "{}";
  }
  static google::protobuf::util::TypeResolver* const resolver =
      google::protobuf::util::NewTypeResolverForDescriptorPool(
          "type.googleapis.com", google::protobuf::DescriptorPool::generated_pool());
  std::string json;
  if (!google::protobuf::util::BinaryToJsonString(
           resolver, "type.googleapis.com/" + sidecar.GetDescriptor()->full_name(), bytes, &json,
           options)
           .ok()) {
    return "{}";
  }
  return json;
}

}  // namespace arbiter::tournament
