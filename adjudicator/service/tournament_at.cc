#include "adjudicator/service/tournament_at.h"

#include <memory>
#include <optional>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/judge/adjudicator_judge.h"
#include "adjudicator/tournament/export_formats.h"
#include "adjudicator/tournament/fold.h"
#include "adjudicator/tournament/sidecar.h"
#include "adjudicator/tournament/standings.h"
#include "adjudicator/tournament/withdrawals.h"
#include "ledger/checkpoint.h"
#include "ledger/merkle.h"
#include "ledger/server_tables.h"
#include "ledger/stream.h"

namespace arbiter::tournament {
namespace {

using Leaves = std::vector<std::pair<uint64_t, ledger::Hash>>;

// The stream's entries at or before `size`, each's leaf noted in `leaves`.
absl::StatusOr<std::vector<v1::LedgerEntry>> EntriesAt(const LogReads& log,
                                                       const std::string& stream, uint64_t size,
                                                       Leaves* leaves) {
  std::vector<v1::LedgerEntry> out;
  for (;;) {
    absl::StatusOr<std::vector<v1::LedgerEntry>> page = log.read_stream(stream, out.size(), 512);
    if (!page.ok()) return page.status();
    for (v1::LedgerEntry& e : *page) {
      if (e.position() > size) return out;
      leaves->emplace_back(e.position(), ledger::EntryLeafHash(e));
      out.push_back(std::move(e));
    }
    if (page->empty()) return out;
  }
}

// The tournament as its events at or before `size` fold.
absl::StatusOr<v1::Tournament> TournamentAt(const LogReads& log, const std::string& id,
                                            uint64_t size, Leaves* leaves) {
  absl::StatusOr<std::string> stream = ledger::TournamentStream(id);
  if (!stream.ok()) return stream.status();
  absl::StatusOr<std::vector<v1::LedgerEntry>> entries = EntriesAt(log, *stream, size, leaves);
  if (!entries.ok()) return entries.status();
  if (entries->empty()) {
    return absl::NotFoundError(
        absl::StrCat("no tournament '", id, "' in the log at tree size ", size));
  }
  std::vector<v1::TournamentEvent> events(entries->size());
  for (size_t i = 0; i < entries->size(); ++i) {
    if (!events[i].ParseFromString((*entries)[i].event())) {
      return absl::DataLossError(absl::StrCat("position ", (*entries)[i].position(),
                                              ": the stored tournament event does not parse"));
    }
  }
  absl::StatusOr<v1::Tournament> t = Fold(events);
  if (!t.ok()) {
    return absl::DataLossError(
        absl::StrCat("tournament ", id, " no longer folds: ", t.status().message()));
  }
  return t;
}

// The game as its events at or before `size` fold under its pinned rules;
// NOT_FOUND when it has none there (its pairing is then pending).
absl::StatusOr<GameFacts> GameAt(const LogReads& log, const std::string& game, uint64_t size,
                                 Leaves* leaves) {
  absl::StatusOr<std::vector<v1::LedgerEntry>> entries = EntriesAt(log, game, size, leaves);
  if (!entries.ok()) return entries.status();
  if (entries->empty()) return absl::NotFoundError(absl::StrCat("no game '", game, "'"));
  absl::StatusOr<std::string> pin = log.rules_pin(game);
  if (!pin.ok()) return pin.status();
  AdjudicatorJudge judge;
  StoredGameFold stored(judge, game, *pin);
  for (const v1::LedgerEntry& entry : *entries) {
    if (absl::Status s = stored.Apply(entry); !s.ok()) return s;
  }
  absl::StatusOr<std::unique_ptr<AdjudicatorFold>> fold = std::move(stored).Finish();
  if (!fold.ok()) return fold.status();
  return GameFactsOf((*fold)->adjudicator());
}

// The facts of every game the tournament names, at `size`.
absl::StatusOr<GameFactsMap> GamesAt(const LogReads& log, const v1::Tournament& t, uint64_t size,
                                     Leaves* leaves) {
  GameFactsMap out;
  for (const v1::TournamentRound& r : t.rounds()) {
    for (const v1::Pairing& p : r.pairings()) {
      std::vector<std::string> ids(p.replayed_game_ids().begin(), p.replayed_game_ids().end());
      if (!p.game_id().empty()) ids.push_back(p.game_id());
      for (const std::string& id : ids) {
        if (out.contains(id)) continue;
        absl::StatusOr<GameFacts> f = GameAt(log, id, size, leaves);
        if (f.ok()) {
          out[id] = *std::move(f);
        } else if (!absl::IsNotFound(f.status())) {
          return absl::Status(f.status().code(),
                              absl::StrCat("game ", id, ": ", f.status().message()));
        }
      }
    }
  }
  return out;
}

// The log's origin: its meta row, else the newest checkpoint note's.
absl::StatusOr<std::string> LogOrigin(ledger::Store& store, ledger::LogSource& reader) {
  absl::StatusOr<std::unique_ptr<ledger::ServerTables>> tables = store.OpenServerTables(true);
  if (tables.ok()) {
    absl::StatusOr<std::optional<std::string>> kept = (*tables)->Meta("log_origin");
    if (kept.ok() && kept->has_value()) return **kept;
  }
  absl::StatusOr<std::vector<v1::Checkpoint>> all = reader.Checkpoints();
  if (!all.ok()) return all.status();
  for (auto it = all->rbegin(); it != all->rend(); ++it) {
    if (!it->note().empty()) return it->note().substr(0, it->note().find('\n'));
  }
  return absl::FailedPreconditionError("the ledger names no origin (no checkpoint note yet)");
}

// The log's signed checkpoint the file names, checked: the log's origin,
// a checkpoint of that size signed by the trusted key, the file's root,
// which the log's leaves give. Their hashes in `*leaves`; a line saying
// why not in `*why`.
absl::Status CheckCheckpoint(ledger::Store& store, ledger::LogSource& reader,
                             const std::string& key_der, const std::string& key_source,
                             const v1::ExportCheckpoint& named, std::vector<ledger::Hash>* leaves,
                             std::string* why) {
  absl::StatusOr<std::string> origin = LogOrigin(store, reader);
  if (!origin.ok()) return origin.status();
  const uint64_t size = named.tree_size();
  if (*origin != named.origin()) {
    *why = absl::StrCat("it names log '", named.origin(), "', and the ledger at ", store.database(),
                        " is log '", *origin, "': not this log's record");
    return absl::OkStatus();
  }
  absl::StatusOr<std::vector<v1::Checkpoint>> of_size = reader.CheckpointsBetween(size, size);
  if (!of_size.ok()) return of_size.status();
  if (of_size->empty()) {
    *why = absl::StrCat("the log has no signed checkpoint of size ", size);
    return absl::OkStatus();
  }
  const v1::Checkpoint& c = of_size->front();
  if (absl::Status s = ledger::VerifyCheckpoint(c, key_der, *origin); !s.ok()) {
    *why = absl::StrCat("the log's checkpoint of size ", size, " is not signed by the key (",
                        key_source, "): ", s.message());
  } else if (absl::Base64Escape(c.root_hash()) != named.root_hash()) {
    *why = absl::StrCat("the log's checkpoint of size ", size, " has root ",
                        absl::Base64Escape(c.root_hash()), "; the file names ", named.root_hash());
  } else {
    absl::StatusOr<std::vector<ledger::Hash>> stored = reader.LeafHashes(size);
    if (!stored.ok()) return stored.status();
    *leaves = *std::move(stored);
    const ledger::Hash root = ledger::MerkleRoot(*leaves);
    if (leaves->size() != size || std::string(root.begin(), root.end()) != c.root_hash()) {
      *why = absl::StrCat("the log's first ", size,
                          " leaves do not give its signed root: the ledger is not intact "
                          "(arbiter verify --db says where)");
    }
  }
  return absl::OkStatus();
}

}  // namespace

LogReads ReadsOf(ledger::LogSource& log) {
  return LogReads{[&log](const std::string& stream, uint64_t after, size_t max) {
                    return log.ReadGame(stream, after, max);
                  },
                  [&log](const std::string& game) { return log.RulesPin(game); }};
}

LogReads ReadsOf(ledger::Ledger& ledger) {
  return LogReads{[&ledger](const std::string& stream, uint64_t after, size_t max) {
                    return ledger.log().ReadGame(stream, after, max);
                  },
                  [&ledger](const std::string& game) { return ledger.log().RulesPin(game); }};
}

GameFacts GameFactsOf(const Adjudicator& game) {
  GameFacts facts;
  if (game.cancelled()) {
    facts.cancelled = game.cancel_reason();  // nothing else of it counts
    return facts;
  }
  if (game.result() != nullptr) facts.result = *game.result();
  const google::protobuf::RepeatedPtrField<v1::Ruling> rulings(game.rulings().begin(),
                                                               game.rulings().end());
  CountWarnings(rulings, &facts);
  // Who the game was created with, for the pairing's check (scoring.h).
  facts.recorded_black = game.game().black().name();
  facts.recorded_white = game.game().white().name();
  facts.withdrew_black = game.withdrew(v1::BLACK);
  facts.withdrew_white = game.withdrew(v1::WHITE);
  if (facts.result.has_value()) {
    for (const v1::Ruling& r : game.rulings()) {
      if (r.number() == facts.result->ruling()) facts.deciding_ruling = r;
    }
  }
  return facts;
}

absl::StatusOr<ExportAtSize> ExportAt(const LogReads& log, const std::string& id,
                                      v1::ExportTournamentRequest::Format format,
                                      const v1::ExportCheckpoint& checkpoint,
                                      const ExportOptions& options) {
  const TournamentExportFormat* f = FindTournamentExport(format);
  if (f == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("format: ", TournamentExportNames()));
  }
  if (absl::Status s = CheckExportOptions(*f, options); !s.ok()) return s;
  ExportAtSize out;
  const uint64_t size = checkpoint.tree_size();
  absl::StatusOr<v1::Tournament> folded = TournamentAt(log, id, size, &out.leaves);
  if (!folded.ok()) return folded.status();
  absl::StatusOr<GameFactsMap> games = GamesAt(log, *folded, size, &out.leaves);
  if (!games.ok()) return games.status();
  const v1::Tournament t = WithWithdrawalsFromGames(*folded, *games);  // 23.2
  v1::StandingsReport report = ComputeStandings(t, *games);
  *report.mutable_checkpoint() = checkpoint;
  absl::StatusOr<std::string> content = f->write(t, report, options);
  if (!content.ok()) return content.status();
  v1::ExportTournamentResponse& r = out.response;
  r.set_filename(absl::StrCat(id, f->extension));
  r.set_content_type(std::string(f->content_type));
  r.set_content(*std::move(content));
  *r.mutable_sidecar() = BuildSidecar(t, report, *games, format);
  r.set_sidecar_json(SidecarJson(r.sidecar()));
  return out;
}

absl::StatusOr<NamedLog> CheckNamedLog(ledger::Store& store, ledger::LogSource& reader,
                                       const std::string& key_der, const std::string& key_source,
                                       const v1::ExportCheckpoint& named) {
  NamedLog log;
  log.named = named;
  absl::Status s =
      CheckCheckpoint(store, reader, key_der, key_source, named, &log.leaves, &log.why_not);
  if (!s.ok()) return s;
  return log;
}

absl::StatusOr<VerifiedExport> DeriveNamedExport(const NamedLog& log, ledger::LogSource& reader,
                                                 const std::string& id,
                                                 v1::ExportTournamentRequest::Format format,
                                                 const ExportOptions& options) {
  VerifiedExport out;
  if (!log.why_not.empty()) {
    out.why_not = log.why_not;
    return out;
  }
  absl::StatusOr<ExportAtSize> derived = ExportAt(ReadsOf(reader), id, format, log.named, options);
  if (!derived.ok()) return derived.status();
  // Every event it was derived from is the one the signed tree holds.
  for (const auto& [position, hash] : derived->leaves) {
    if (position == 0 || position > log.leaves.size() || log.leaves[position - 1] != hash) {
      out.why_not = absl::StrCat("position ", position,
                                 " of the log is not the event its signed tree holds: the ledger "
                                 "is not intact (arbiter verify --db says more)");
      return out;
    }
  }
  out.content = std::move(*derived->response.mutable_content());
  return out;
}

}  // namespace arbiter::tournament
