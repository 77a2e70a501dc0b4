#include "adjudicator/service/tournament_service.h"

#include <map>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/service/field_bounds.h"
#include "adjudicator/service/tournament_at.h"
#include "adjudicator/tournament/export_formats.h"
#include "adjudicator/tournament/fold.h"
#include "adjudicator/tournament/matches.h"
#include "adjudicator/tournament/names.h"
#include "adjudicator/tournament/opengotha.h"
#include "adjudicator/tournament/ranks.h"
#include "adjudicator/tournament/scoring.h"
#include "adjudicator/tournament/sidecar.h"
#include "adjudicator/tournament/standings.h"
#include "adjudicator/tournament/standings_rules.h"
#include "adjudicator/tournament/withdrawals.h"
#include "proto/names/resource_name.h"

namespace arbiter::tournament {
namespace {

// What an event being recorded must hold beyond what its fold checks (the
// fold also reads tournaments recorded before these checks): a player's
// names, one line each, and rank (names.h, ranks.h), and a new
// tournament's ruleset, which the standings' withdrawal rules and the
// exports' rules of play are read from.
absl::Status CheckEntered(const v1::TournamentEvent& event) {
  if (event.has_created()) {
    const std::string& ruleset = event.created().settings().ruleset();
    if (!ruleset.empty() && ruleset != "cn-2002" && ruleset != "cn-1988") {
      return absl::InvalidArgumentError(
          absl::StrCat("settings.ruleset: ", service::QuotedPrefix(ruleset),
                       " is not a ruleset; cn-2002 (the default) or cn-1988"));
    }
  }
  if (absl::Status s = CheckNamesEntered(event); !s.ok()) return s;
  return CheckRanksEntered(event);
}

// Reads and appends of one write, when other writers keep getting in first.
constexpr int kWriteAttempts = 5;

void Stamp(absl::Time at, v1::TournamentEvent* e) {
  const int64_t nanos = absl::ToUnixNanos(at);
  e->mutable_at()->set_seconds(nanos / 1000000000);
  e->mutable_at()->set_nanos(static_cast<int32_t>(nanos % 1000000000));
}

// The report in pages (tournament.proto, StandingsReport): the first holds
// what is not repeated, each a run of the repeated fields, every one the
// whole report's size. A row, a pairing or an error is bounded by the
// record's field limits (field_bounds.h), far under a page.
service::AnswerPageList CutStandings(const v1::StandingsReport& whole) {
  v1::StandingsReport blank;
  blank.set_total_bytes(whole.ByteSizeLong());
  v1::StandingsReport first = whole;
  first.clear_standings();
  first.clear_player_standings();
  first.clear_pairings();
  first.clear_errors();
  first.clear_byes();
  first.set_total_bytes(blank.total_bytes());
  service::PageCutter<v1::StandingsReport> cutter(first, blank);
  for (const v1::Standing& s : whole.standings()) {
    cutter.Add(s.ByteSizeLong(), [&](v1::StandingsReport* p) { *p->add_standings() = s; });
  }
  for (const v1::Standing& s : whole.player_standings()) {
    cutter.Add(s.ByteSizeLong(), [&](v1::StandingsReport* p) { *p->add_player_standings() = s; });
  }
  for (const v1::ScoredPairing& s : whole.pairings()) {
    cutter.Add(s.ByteSizeLong(), [&](v1::StandingsReport* p) { *p->add_pairings() = s; });
  }
  for (const std::string& e : whole.errors()) {
    cutter.Add(e.size(), [&](v1::StandingsReport* p) { p->add_errors(e); });
  }
  for (const v1::ScoredBye& b : whole.byes()) {
    cutter.Add(b.ByteSizeLong(), [&](v1::StandingsReport* p) { *p->add_byes() = b; });
  }
  return cutter.Done();
}

// An export in pages (tournament.proto, ExportTournamentResponse): the file's
// bytes, then the sidecar's JSON, then the sidecar's entries in key order;
// the file name and type on every page.
service::AnswerPageList CutExport(const v1::ExportTournamentResponse& whole) {
  v1::ExportTournamentResponse blank;
  blank.set_filename(whole.filename());
  blank.set_content_type(whole.content_type());
  blank.set_total_bytes(whole.content().size() + whole.sidecar_json().size());
  v1::ExportTournamentResponse first = blank;
  first.mutable_sidecar()->set_tournament(whole.sidecar().tournament());
  first.mutable_sidecar()->set_format(whole.sidecar().format());
  service::PageCutter<v1::ExportTournamentResponse> cutter(first, blank);
  cutter.AddBytes(whole.content(),
                  [](v1::ExportTournamentResponse* p) { return p->mutable_content(); });
  cutter.AddBytes(whole.sidecar_json(),
                  [](v1::ExportTournamentResponse* p) { return p->mutable_sidecar_json(); });
  const std::map<std::string, v1::SidecarEntry> entries(whole.sidecar().entries().begin(),
                                                        whole.sidecar().entries().end());
  // Not a structured binding: clang 14 (the sanitizer build) does not let
  // a lambda capture one.
  for (const auto& keyed : entries) {
    cutter.Add(keyed.first.size() + keyed.second.ByteSizeLong(),
               [&keyed](v1::ExportTournamentResponse* p) {
                 (*p->mutable_sidecar()->mutable_entries())[keyed.first] = keyed.second;
               });
  }
  return cutter.Done();
}

}  // namespace

TournamentServiceImpl::TournamentServiceImpl(TournamentStore* store, GameSource games,
                                             const service::Callers* callers,
                                             std::function<absl::Time()> now, GameMaker make_game)
    : store_(store),
      games_(std::move(games)),
      callers_(callers),
      now_(std::move(now)),
      make_game_(std::move(make_game)) {}

absl::StatusOr<v1::Tournament> TournamentServiceImpl::Current(const std::string& id) {
  absl::StatusOr<std::vector<v1::TournamentEvent>> events = store_->Load(id);
  if (!events.ok()) return events.status();
  absl::StatusOr<v1::Tournament> t = Fold(*events);
  if (!t.ok())
    return absl::DataLossError(
        absl::StrCat("stored tournament ", id, " no longer folds: ", t.status().message()));
  return t;
}

absl::StatusOr<v1::Tournament> TournamentServiceImpl::Record(
    const service::Caller& caller, const std::string& id, std::vector<v1::TournamentEvent> events,
    bool must_exist) {
  absl::MutexLock lock(&write_mu_);
  absl::StatusOr<v1::Tournament> t = absl::AbortedError("not attempted");
  for (int attempt = 0; attempt < kWriteAttempts && absl::IsAborted(t.status()); ++attempt) {
    t = FoldAndAppend(caller, id, events, must_exist);
  }
  return t;
}

absl::StatusOr<v1::Tournament> TournamentServiceImpl::FoldAndAppend(
    const service::Caller& caller, const std::string& id, std::vector<v1::TournamentEvent> events,
    bool must_exist) {
  v1::Tournament t;
  absl::StatusOr<v1::Tournament> current = Current(id);
  if (current.ok()) {
    if (!must_exist)
      return absl::AlreadyExistsError(absl::StrCat("tournament '", id, "' already exists"));
    t = *std::move(current);
  } else if (current.status().code() != absl::StatusCode::kNotFound || must_exist) {
    return current.status();
  }
  return AppendOnto(caller, id, std::move(t), std::move(events));
}

absl::StatusOr<v1::Tournament> TournamentServiceImpl::AppendOnto(
    const service::Caller& caller, const std::string& id, v1::Tournament t,
    std::vector<v1::TournamentEvent> events) {
  const uint64_t expected = t.revision();
  const absl::Time at = now_();
  // A new tournament is scored under the standings rules of today, for good.
  if (!events.empty() && events[0].has_created() && events[0].created().standings_rules().empty()) {
    events[0].mutable_created()->set_standings_rules(std::string(CurrentStandingsRules()));
  }
  for (size_t i = 0; i < events.size(); ++i) {
    Stamp(at, &events[i]);
    // The authenticated caller (empty when the server runs open), never
    // what an imported file or a client put there.
    events[i].set_actor(caller.actor);
    absl::Status s = CheckEntered(events[i]);
    if (s.ok()) s = Apply(events[i], &t);
    if (!s.ok()) {
      return events.size() == 1
                 ? s
                 : absl::Status(s.code(), absl::StrCat("item ", i + 1, ": ", s.message()));
    }
  }
  // What GetTournament (and every write here) answers is `t`: bounded, so
  // it stays under gRPC's message limit however many players are added.
  if (const size_t bytes = t.ByteSizeLong(); bytes > service::kMaxTournamentBytes) {
    return absl::InvalidArgumentError(absl::StrCat("tournament '", id, "' would hold ", bytes,
                                                   " bytes, at most ",
                                                   service::kMaxTournamentBytes));
  }
  if (t.players_size() > service::kMaxTournamentPlayers) {
    return absl::InvalidArgumentError(absl::StrCat("tournament '", id, "' would have ",
                                                   t.players_size(), " players, at most ",
                                                   service::kMaxTournamentPlayers));
  }
  if (absl::Status s = store_->Append(id, expected, events); !s.ok()) return s;
  return t;
}

absl::Status TournamentServiceImpl::CheckRecorded(const v1::Tournament& t, const v1::Pairing& p) {
  if (p.game_id().empty()) return absl::OkStatus();
  absl::StatusOr<GameFacts> facts = games_(p.game_id());
  if (!facts.ok()) {
    if (facts.status().code() == absl::StatusCode::kNotFound) return absl::OkStatus();
    return absl::Status(facts.status().code(),
                        absl::StrCat("game ", p.game_id(), ": ", facts.status().message()));
  }
  return CheckRecordedPlayers(t, p, *facts);
}

absl::StatusOr<GameFactsMap> TournamentServiceImpl::Games(const v1::Tournament& t) {
  std::vector<std::string> ids;
  for (const v1::TournamentRound& r : t.rounds()) {
    for (const v1::Pairing& p : r.pairings()) {
      if (!p.game_id().empty()) ids.push_back(p.game_id());
      ids.insert(ids.end(), p.replayed_game_ids().begin(), p.replayed_game_ids().end());
    }
  }
  GameFactsMap out;
  for (const std::string& id : ids) {
    absl::StatusOr<GameFacts> f = games_(id);
    if (f.ok()) {
      out[id] = *std::move(f);
    } else if (f.status().code() != absl::StatusCode::kNotFound) {
      return absl::Status(f.status().code(), absl::StrCat("game ", id, ": ", f.status().message()));
    }
  }
  return out;
}

grpc::Status TournamentServiceImpl::CreateTournament(grpc::ServerContext* context,
                                                     const v1::CreateTournamentRequest* req,
                                                     v1::Tournament* out) {
  return callers_->Serve(context, *req, [&](const service::Caller& caller) -> absl::Status {
    std::vector<v1::TournamentEvent> events(1);
    *events[0].mutable_created() = req->tournament();
    for (const v1::TournamentTeam& team : req->teams())
      *events.emplace_back().mutable_team_added()->mutable_team() = team;
    for (const v1::TournamentPlayer& p : req->players())
      *events.emplace_back().mutable_player_added()->mutable_player() = p;
    if (absl::Status s = CheckId("tournament", req->tournament().tournament_id()); !s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("tournament.tournamentId: ", s.message()));
    }
    absl::StatusOr<v1::Tournament> t =
        Record(caller, req->tournament().tournament_id(), std::move(events), false);
    if (!t.ok()) return t.status();
    *out = *std::move(t);
    return absl::OkStatus();
  });
}

grpc::Status TournamentServiceImpl::ImportTournament(grpc::ServerContext* context,
                                                     const v1::ImportTournamentRequest* req,
                                                     v1::Tournament* out) {
  return callers_->Serve(context, *req, [&](const service::Caller& caller) -> absl::Status {
    if (absl::Status s = CheckId("tournament", req->tournament_id()); !s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("tournamentId: ", s.message()));
    }
    absl::StatusOr<std::vector<v1::TournamentEvent>> events =
        ImportOpenGotha(req->opengotha_xml(), req->tournament_id(), req->settings());
    if (!events.ok()) return events.status();
    absl::StatusOr<v1::Tournament> t =
        Record(caller, req->tournament_id(), *std::move(events), false);
    if (!t.ok()) return t.status();
    *out = *std::move(t);
    return absl::OkStatus();
  });
}

grpc::Status TournamentServiceImpl::ListTournaments(grpc::ServerContext* context,
                                                    const v1::ListTournamentsRequest* req,
                                                    v1::ListTournamentsResponse* out) {
  return callers_->Serve(context, *req, [&](const service::Caller&) -> absl::Status {
    absl::StatusOr<std::vector<std::string>> ids = store_->Ids();
    if (!ids.ok()) return ids.status();
    for (const std::string& id : *ids) out->add_names(absl::StrCat("tournaments/", id));
    return absl::OkStatus();
  });
}

grpc::Status TournamentServiceImpl::GetTournament(grpc::ServerContext* context,
                                                  const v1::GetTournamentRequest* req,
                                                  v1::Tournament* out) {
  return callers_->Serve(context, *req, [&](const service::Caller&) -> absl::Status {
    absl::StatusOr<std::string> id = ParseResourceName("tournaments", req->name(), "name");
    if (!id.ok()) return id.status();
    absl::StatusOr<v1::Tournament> t = Current(*id);
    if (!t.ok()) return t.status();
    *out = *std::move(t);
    return absl::OkStatus();
  });
}

grpc::Status TournamentServiceImpl::AddPlayers(grpc::ServerContext* context,
                                               const v1::AddPlayersRequest* req,
                                               v1::Tournament* out) {
  return callers_->Serve(context, *req, [&](const service::Caller& caller) -> absl::Status {
    absl::StatusOr<std::string> id =
        ParseResourceName("tournaments", req->tournament(), "tournament");
    if (!id.ok()) return id.status();
    if (req->players().empty() && req->teams().empty()) {
      return absl::InvalidArgumentError("no players or teams to add");
    }
    std::vector<v1::TournamentEvent> events;
    for (const v1::TournamentTeam& team : req->teams())
      *events.emplace_back().mutable_team_added()->mutable_team() = team;
    for (const v1::TournamentPlayer& p : req->players())
      *events.emplace_back().mutable_player_added()->mutable_player() = p;
    absl::StatusOr<v1::Tournament> t = Record(caller, *id, std::move(events), true);
    if (!t.ok()) return t.status();
    *out = *std::move(t);
    return absl::OkStatus();
  });
}

absl::Status TournamentServiceImpl::RecordInto(const service::Caller& caller,
                                               const std::string& name, v1::TournamentEvent event,
                                               v1::Tournament* out) {
  absl::StatusOr<std::string> id = ParseResourceName("tournaments", name, "tournament");
  if (!id.ok()) return id.status();
  std::vector<v1::TournamentEvent> events;
  events.push_back(std::move(event));
  absl::StatusOr<v1::Tournament> t = Record(caller, *id, std::move(events), true);
  if (!t.ok()) return t.status();
  *out = *std::move(t);
  return absl::OkStatus();
}

grpc::Status TournamentServiceImpl::PairRound(grpc::ServerContext* context,
                                              const v1::PairRoundRequest* req,
                                              v1::Tournament* out) {
  return callers_->Serve(context, *req, [&](const service::Caller& caller) -> absl::Status {
    absl::StatusOr<std::string> id =
        ParseResourceName("tournaments", req->tournament(), "tournament");
    if (!id.ok()) return id.status();
    // A game already recorded must have been played by the paired players
    // in the paired colours; one recorded later is checked by the standings.
    // The round is folded first, so bad input is named as such. A team
    // round given as matches is paired board by board from the lineups
    // (matches.h); either way its pairings must make matches.
    v1::TournamentEvent event;
    absl::StatusOr<v1::Tournament> paired = Current(*id);
    if (!paired.ok()) return paired.status();
    if (req->matches().empty()) {
      *event.mutable_round_paired()->mutable_round() = req->round();
    } else {
      if (!req->round().pairings().empty()) {
        return absl::InvalidArgumentError(
            "round: matches or pairings (--match or --board), not both");
      }
      absl::StatusOr<v1::TournamentRound> round =
          PairMatches(*paired, req->round().round(), req->matches(), req->round().byes());
      if (!round.ok()) return round.status();
      *event.mutable_round_paired()->mutable_round() = *std::move(round);
    }
    if (absl::Status s = Apply(event, &*paired); !s.ok()) return s;
    for (v1::Pairing p : event.round_paired().round().pairings()) {
      p.set_round(event.round_paired().round().round());
      if (absl::Status s = CheckNotTeamMates(*paired, p); !s.ok()) return s;
      if (absl::Status s = CheckRecorded(*paired, p); !s.ok()) return s;
    }
    for (const v1::TournamentRound& r : paired->rounds()) {
      if (r.round() != event.round_paired().round().round()) continue;
      if (absl::Status s = CheckMatches(*paired, r); !s.ok()) return s;
    }
    return RecordInto(caller, req->tournament(), std::move(event), out);
  });
}

grpc::Status TournamentServiceImpl::SetLineup(grpc::ServerContext* context,
                                              const v1::SetLineupRequest* req,
                                              v1::Tournament* out) {
  return callers_->Serve(context, *req, [&](const service::Caller& caller) -> absl::Status {
    v1::TournamentEvent event;
    *event.mutable_lineup_set() = req->lineup();
    return RecordInto(caller, req->tournament(), std::move(event), out);
  });
}

grpc::Status TournamentServiceImpl::ScheduleReplay(grpc::ServerContext* context,
                                                   const v1::ScheduleReplayRequest* req,
                                                   v1::Tournament* out) {
  return callers_->Serve(context, *req, [&](const service::Caller& caller) -> absl::Status {
    absl::StatusOr<std::string> id =
        ParseResourceName("tournaments", req->tournament(), "tournament");
    if (!id.ok()) return id.status();
    // Only a game that ended REPLAY (重赛) is replayed.
    absl::StatusOr<v1::Tournament> current = Current(*id);
    if (!current.ok()) return current.status();
    const v1::Pairing* p = FindPairing(*current, req->replay().round(), req->replay().board());
    if (p == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("round ", req->replay().round(), " board ",
                                                     req->replay().board(), " is not paired"));
    }
    absl::StatusOr<GameFacts> facts = games_(p->game_id());
    if (!facts.ok()) return facts.status();
    if (!facts->result.has_value() || facts->result->outcome() != v1::Result::REPLAY) {
      return absl::FailedPreconditionError(
          absl::StrCat("game ", p->game_id(), " did not end REPLAY"));
    }
    v1::Pairing replay = *p;
    replay.set_game_id(req->replay().game_id());
    if (absl::Status s = CheckRecorded(*current, replay); !s.ok()) return s;
    v1::TournamentEvent event;
    *event.mutable_replay_scheduled() = req->replay();
    return RecordInto(caller, req->tournament(), std::move(event), out);
  });
}

grpc::Status TournamentServiceImpl::WithdrawPlayer(grpc::ServerContext* context,
                                                   const v1::WithdrawPlayerRequest* req,
                                                   v1::Tournament* out) {
  return callers_->Serve(context, *req, [&](const service::Caller& caller) -> absl::Status {
    v1::TournamentEvent event;
    *event.mutable_player_withdrawn() = req->withdrawal();
    return RecordInto(caller, req->tournament(), std::move(event), out);
  });
}

grpc::Status TournamentServiceImpl::DecideTieBreak(grpc::ServerContext* context,
                                                   const v1::DecideTieBreakRequest* req,
                                                   v1::Tournament* out) {
  return callers_->Serve(context, *req, [&](const service::Caller& caller) -> absl::Status {
    v1::TournamentEvent event;
    *event.mutable_tie_break_decided() = req->decision();
    return RecordInto(caller, req->tournament(), std::move(event), out);
  });
}

grpc::Status TournamentServiceImpl::CorrectTournament(grpc::ServerContext* context,
                                                      const v1::CorrectTournamentRequest* req,
                                                      v1::Tournament* out) {
  return callers_->Serve(context, *req, [&](const service::Caller& caller) -> absl::Status {
    absl::StatusOr<std::string> id =
        ParseResourceName("tournaments", req->tournament(), "tournament");
    if (!id.ok()) return id.status();
    absl::StatusOr<v1::Tournament> current = Current(*id);
    if (!current.ok()) return current.status();
    const v1::TournamentCorrection& c = req->correction();
    if (c.has_pairing_amended()) {
      // As when a round is paired: a recorded game must be the pairing's.
      v1::Pairing p = c.pairing_amended().pairing();
      p.set_round(c.pairing_amended().round());
      if (absl::Status s = CheckNotTeamMates(*current, p); !s.ok()) return s;
      if (absl::Status s = CheckRecorded(*current, p); !s.ok()) return s;
      // The round as amended must still make matches (matches.h).
      v1::Tournament amended = *current;
      v1::TournamentEvent folded;
      *folded.mutable_corrected() = c;
      if (absl::Status s = Apply(folded, &amended); !s.ok()) return s;
      for (const v1::TournamentRound& r : amended.rounds()) {
        if (r.round() != c.pairing_amended().round()) continue;
        if (absl::Status s = CheckMatches(amended, r); !s.ok()) return s;
      }
    } else if (c.has_result_entered()) {
      const v1::ResultEntered& e = c.result_entered();
      const v1::Pairing* p = FindPairing(*current, e.round(), e.board());
      if (p != nullptr && !p->game_id().empty()) {
        absl::StatusOr<GameFacts> facts = games_(p->game_id());
        if (facts.ok()) {
          return absl::FailedPreconditionError(absl::StrCat(
              "round ", e.round(), " board ", e.board(), ": game ", p->game_id(),
              " is recorded in the ledger; its result is the record's (correct the game itself)"));
        }
        if (facts.status().code() != absl::StatusCode::kNotFound) return facts.status();
      }
    }
    v1::TournamentEvent event;
    *event.mutable_corrected() = c;
    return RecordInto(caller, req->tournament(), std::move(event), out);
  });
}

absl::StatusOr<v1::StandingsReport> TournamentServiceImpl::Standings(const std::string& id,
                                                                     v1::Tournament* t,
                                                                     GameFactsMap* games) {
  absl::StatusOr<v1::Tournament> current = Current(id);
  if (!current.ok()) return current.status();
  absl::StatusOr<GameFactsMap> facts = Games(*current);
  if (!facts.ok()) return facts.status();
  *t = WithWithdrawalsFromGames(*current, *facts);  // 23.2, as the games record it
  *games = *std::move(facts);
  return ComputeStandings(*t, *games);
}

grpc::Status TournamentServiceImpl::GetStandings(grpc::ServerContext* context,
                                                 const v1::GetStandingsRequest* req,
                                                 v1::StandingsReport* out) {
  return callers_->Serve(context, *req, [&](const service::Caller&) -> absl::Status {
    absl::StatusOr<std::string> id =
        ParseResourceName("tournaments", req->tournament(), "tournament");
    if (!id.ok()) return id.status();
    auto make = [&]() -> absl::StatusOr<service::AnswerPageList> {
      v1::Tournament t;
      GameFactsMap games;
      absl::StatusOr<v1::StandingsReport> report = Standings(*id, &t, &games);
      if (!report.ok()) return report.status();
      // The byes, as the JSON export lists them (not in the recorded
      // standings, which Standings() gives as they were).
      for (const v1::ScoredBye& b : ScoredByes(t)) *report->add_byes() = b;
      return CutStandings(*report);
    };
    std::string next;
    absl::StatusOr<std::string> page =
        pages_.Page(absl::StrCat(*id, " standings"), req->page_token(), make, &next);
    if (!page.ok()) return page.status();
    if (!out->ParseFromString(*page)) return absl::InternalError("a kept page does not parse");
    out->set_next_page_token(next);
    return absl::OkStatus();
  });
}

absl::StatusOr<v1::ExportTournamentResponse> TournamentServiceImpl::WholeExport(
    const std::string& id, v1::ExportTournamentRequest::Format format, uint64_t at_tree_size,
    const ExportOptions& options) {
  const TournamentExportFormat* f = FindTournamentExport(format);
  if (f == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("format: ", TournamentExportNames()));
  }
  // Refused before a checkpoint is signed for it.
  if (absl::Status s = CheckExportOptions(*f, options); !s.ok()) return s;
  // Derived from the log at a signed checkpoint's size, never from the
  // read model as it is now: the file names that checkpoint, and everything
  // it was derived from is in it (DOMAIN.md, "Exports name the record they
  // came from").
  absl::StatusOr<v1::ExportCheckpoint> checkpoint = store_->ExportCheckpoint(at_tree_size);
  if (!checkpoint.ok()) return checkpoint.status();
  absl::StatusOr<ExportAtSize> at = ExportAt(store_->Reads(), id, format, *checkpoint, options);
  if (!at.ok()) return at.status();
  return std::move(at->response);
}

grpc::Status TournamentServiceImpl::ExportTournament(grpc::ServerContext* context,
                                                     const v1::ExportTournamentRequest* req,
                                                     v1::ExportTournamentResponse* out) {
  return callers_->Serve(context, *req, [&](const service::Caller&) -> absl::Status {
    absl::StatusOr<std::string> id =
        ParseResourceName("tournaments", req->tournament(), "tournament");
    if (!id.ok()) return id.status();
    ExportOptions options;
    options.title = req->title();
    options.place = req->place();
    options.for_spreadsheet = req->for_spreadsheet();
    auto make = [&]() -> absl::StatusOr<service::AnswerPageList> {
      absl::StatusOr<v1::ExportTournamentResponse> whole =
          WholeExport(*id, req->format(), req->at_tree_size(), options);
      if (!whole.ok()) return whole.status();
      return CutExport(*whole);
    };
    std::string next;
    // The options are part of what the pages are cut from (the title and
    // place escaped and quoted, so no title reads as another key).
    absl::StatusOr<std::string> page = pages_.Page(
        absl::StrCat(*id, " ", v1::ExportTournamentRequest::Format_Name(req->format()), " ",
                     req->at_tree_size(), " ", options.for_spreadsheet ? 1 : 0, " \"",
                     absl::CEscape(options.title), "\" \"", absl::CEscape(options.place), "\""),
        req->page_token(), make, &next);
    if (!page.ok()) return page.status();
    if (!out->ParseFromString(*page)) return absl::InternalError("a kept page does not parse");
    out->set_next_page_token(next);
    return absl::OkStatus();
  });
}

}  // namespace arbiter::tournament
