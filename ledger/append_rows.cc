#include "ledger/internal/append_rows.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "ledger/entry_bounds.h"
#include "ledger/internal/append_checks.h"
#include "ledger/venue_proofs.h"
#include "proto/canonical/canonical_bytes.h"

namespace arbiter::ledger {
namespace {

// Idempotency: a key, once recorded in a game's stream, forever names that
// event there (another game's stream has keys of its own). The positions
// the job's keys name when every event is recorded with the same bytes;
// none when no key is recorded.
absl::StatusOr<std::vector<uint64_t>> RecordedPositions(const AppendJob& job, AppendRows& rows) {
  std::vector<uint64_t> recorded;
  size_t keyed = 0;
  for (size_t i = 0; i < job.events.size(); ++i) {
    const std::string& key = job.events[i].idempotency_key();
    if (key.empty()) continue;
    ++keyed;
    absl::StatusOr<std::optional<AppendRows::KeyedEvent>> found = rows.FindKey(job.game_id, key);
    if (!found.ok()) return found.status();
    if (!*found) continue;
    if ((*found)->event != job.canonical[i]) {
      return absl::AlreadyExistsError(absl::StrCat("idempotency key '", key,
                                                   "' already names the event at position ",
                                                   (*found)->position, ", with other content"));
    }
    recorded.push_back((*found)->position);
  }
  if (!recorded.empty() && recorded.size() != job.events.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("the append mixes ", recorded.size(), " already recorded event(s) with ",
                     job.events.size() - recorded.size(), " new one(s); ", keyed, " carry keys"));
  }
  return recorded;
}

// A private fold of the game as of `revision` for the append to be judged
// on: a copy of the batch's or the judge's committed fold, a fresh one for
// a new game, or else the stored stream replayed.
absl::StatusOr<std::unique_ptr<GameJudge>> WorkingFold(const AppendJob& job, uint64_t revision,
                                                       const AppendBatch& batch, Judge& judge,
                                                       AppendRows& rows) {
  if (auto it = batch.folds.find(job.game_id); it != batch.folds.end()) {
    return it->second->Clone();
  }
  if (revision == 0) return judge.Open(job.game_id, job.events[0].game_created());
  if (std::shared_ptr<const GameJudge> committed = judge.Committed(job.game_id, revision)) {
    return committed->Clone();
  }
  return rows.Replay(job.game_id);
}

// A venue's first append (an AppendRequest with a venue_key_der, which
// expects revision 0) writes the venue's
// claim on the stream inside its own savepoint, once the stream checks found
// it new: nothing to write when that venue has claimed it already (a claim
// an older server wrote before its first append), ALREADY_EXISTS when
// another venue has.
absl::Status ClaimForVenue(const AppendJob& job, AppendRows& rows) {
  absl::StatusOr<std::optional<std::string>> claimed = rows.VenueKeyOf(job.game_id);
  if (!claimed.ok()) return claimed.status();
  if (*claimed) {
    if (**claimed == job.venue_key_der) return absl::OkStatus();
    return absl::AlreadyExistsError(absl::StrCat(
        job.tournament() ? "tournament '" : "game '",
        job.tournament() ? job.game_id.substr(kTournamentStreamPrefix.size()) : job.game_id,
        "' was synced from another venue (", VenueId(**claimed).substr(0, 16), "…)"));
  }
  return rows.InsertVenueGame(job.game_id, VenueId(job.venue_key_der), job.venue_key_der);
}

// The stream's revision as this batch leaves it: its own appends so far,
// else the committed one.
absl::StatusOr<uint64_t> StreamRevision(const std::string& stream, const AppendBatch& batch,
                                        AppendRows& rows) {
  if (auto it = batch.revisions.find(stream); it != batch.revisions.end()) return it->second;
  return rows.CommittedRevision(stream);
}

// A tournament's append (a tournament's AppendRequest): the same stream,
// expected-revision and byte-bound checks as a game's, no judge, no
// rulings, no games row. Its events carry no idempotency key.
absl::StatusOr<std::vector<v1::LedgerEntry>> AppendTournamentOnto(AppendJob& job,
                                                                  AppendBatch& batch,
                                                                  AppendRows& rows) {
  absl::StatusOr<uint64_t> head = StreamRevision(job.game_id, batch, rows);
  if (!head.ok()) return head.status();
  const uint64_t current = *head;
  if (absl::Status s =
          CheckAgainstTournamentStream(job.game_id, job.tournament_events, current, job.expected);
      !s.ok()) {
    return s;
  }
  for (const StreamAt& from : job.derived_from) {
    absl::StatusOr<uint64_t> at = StreamRevision(from.stream, batch, rows);
    if (!at.ok()) return at.status();
    if (absl::Status s = ExpectedRevision::Exactly(from.revision).Check(from.stream, *at);
        !s.ok()) {
      return s;
    }
  }
  if (!job.venue_key_der.empty()) {
    if (absl::Status s = ClaimForVenue(job, rows); !s.ok()) return s;
  }
  size_t append_bytes = 0;
  for (size_t i = 0; i < job.canonical.size(); ++i) {
    append_bytes += job.canonical[i].size();
    if (job.canonical[i].size() > kMaxEntryBytes || append_bytes > kMaxAppendBytes) {
      return absl::InvalidArgumentError(absl::StrCat(
          "events[", i, "]: the append comes to ", append_bytes, " bytes; an entry holds at most ",
          kMaxEntryBytes, ", an append ", kMaxAppendBytes));
    }
  }
  const uint64_t revision = current + job.canonical.size();
  if (absl::Status s = rows.AdvanceStream(job.game_id, revision); !s.ok()) return s;
  std::vector<v1::LedgerEntry> out;
  for (size_t i = 0; i < job.canonical.size(); ++i) {
    const uint64_t position = batch.head + 1 + i;
    if (absl::Status s = rows.InsertEvent(position, job.game_id, current + 1 + i, "",
                                          job.canonical[i], job.leaves[i]);
        !s.ok()) {
      return s;
    }
    if (absl::Status s = rows.InsertArrival(position, job.received_at); !s.ok()) return s;
    v1::LedgerEntry& entry = out.emplace_back();
    entry.set_position(position);
    entry.set_game_id(job.game_id);
    entry.set_revision(current + 1 + i);
    entry.set_event(job.canonical[i]);
  }
  if (job.dry_run) return out;
  batch.head += job.canonical.size();
  for (const Hash& leaf : job.leaves) batch.range.Append(leaf);
  batch.revisions[job.game_id] = revision;
  return out;
}

// The answer to a retry whose every event is recorded already: the entries
// at the positions its keys name, as the first append answered them.
absl::StatusOr<std::vector<v1::LedgerEntry>> RecordedEntries(const std::vector<uint64_t>& positions,
                                                             AppendRows& rows) {
  std::vector<v1::LedgerEntry> out;
  for (uint64_t pos : positions) {
    absl::StatusOr<v1::LedgerEntry> e = rows.EntryAt(pos);
    if (!e.ok()) return e.status();
    out.push_back(*std::move(e));
  }
  return out;
}

// What the judge decided is bounded too, before anything of it is written:
// every answer that carries entries then stays under a message's limit
// (ledger.h, kMaxEntryBytes). `append_bytes` is the append's total so far.
absl::Status CheckJudgedBytes(size_t i, const std::string& canonical, const Verdict& verdict,
                              size_t& append_bytes) {
  size_t entry_bytes = canonical.size();
  for (const v1::Ruling& r : verdict.rulings) entry_bytes += r.ByteSizeLong();
  append_bytes += entry_bytes;
  if (entry_bytes > kMaxEntryBytes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "events[", i, "]: the event and its ", verdict.rulings.size(), " rulings come to ",
        entry_bytes, " bytes; an entry holds at most ", kMaxEntryBytes));
  }
  if (append_bytes > kMaxAppendBytes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "events[0..", i, "]: the events and their rulings come to ", append_bytes,
        " bytes; an append holds at most ", kMaxAppendBytes, ": send smaller batches"));
  }
  return absl::OkStatus();
}

// Writes the job's event `i`, judged, at `position` and `revision`: the
// games row with the game's first event, the event, its rulings; and fills
// `entry` as the append answers it. The event's bytes move into the entry:
// once written they are not needed again.
absl::Status WriteJudgedEvent(AppendJob& job, size_t i, uint64_t position, uint64_t revision,
                              const GameJudge& judge, Verdict& verdict, AppendRows& rows,
                              v1::LedgerEntry& entry) {
  if (revision == 1) {
    if (absl::Status s = rows.InsertGame(job.game_id, position, judge.RulesPin()); !s.ok()) {
      return s;
    }
  }
  if (absl::Status s =
          rows.InsertEvent(position, job.game_id, revision, job.events[i].idempotency_key(),
                           job.canonical[i], job.leaves[i]);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = rows.InsertArrival(position, job.received_at); !s.ok()) return s;
  for (size_t k = 0; k < verdict.rulings.size(); ++k) {
    if (absl::Status s = rows.InsertRuling(position, k, CanonicalBytes(verdict.rulings[k]));
        !s.ok()) {
      return s;
    }
    *entry.add_rulings() = std::move(verdict.rulings[k]);
  }
  entry.set_position(position);
  entry.set_game_id(job.game_id);
  entry.set_revision(revision);
  entry.set_event(std::move(job.canonical[i]));
  return absl::OkStatus();
}

// Judges the job's events in order on `judge` (the game's working fold at
// `current`, the log's head at `head`) and writes each with its rulings,
// filling `out`; `game_over` when one of them gave the game its result.
absl::Status JudgeAndWrite(AppendJob& job, uint64_t head, uint64_t current, GameJudge& judge,
                           AppendRows& rows, std::vector<v1::LedgerEntry>& out, bool& game_over) {
  size_t append_bytes = 0;
  for (size_t i = 0; i < job.events.size(); ++i) {
    // A client's report may be held to checks a recorded event is not.
    absl::StatusOr<Verdict> verdict =
        job.synced ? judge.Apply(job.events[i]) : judge.ApplyNew(job.events[i]);
    if (!verdict.ok()) {
      // In a batch, which event: as a bound's refusal names events[i].
      if (job.events.size() == 1) return verdict.status();
      absl::Status which(verdict.status().code(),
                         absl::StrCat("events[", i, "]: ", verdict.status().message()));
      // The judge's payloads (a refusal's reason in words) go with it.
      verdict.status().ForEachPayload([&](absl::string_view url, const absl::Cord& payload) {
        which.SetPayload(url, payload);
      });
      return which;
    }
    if (absl::Status s = CheckJudgedBytes(i, job.canonical[i], *verdict, append_bytes); !s.ok()) {
      return s;
    }
    if (absl::Status s = WriteJudgedEvent(job, i, head + 1 + i, current + 1 + i, judge, *verdict,
                                          rows, out.emplace_back());
        !s.ok()) {
      return s;
    }
    game_over = game_over || verdict->game_over;
  }
  return absl::OkStatus();
}

// A written (not dry-run) append becomes part of the batch: its head, its
// Merkle range, the stream's revision and the game's fold, which the next
// append to the game in this batch is judged on.
void KeepInBatch(AppendJob& job, std::unique_ptr<GameJudge> fold, bool game_over, uint64_t revision,
                 AppendBatch& batch) {
  batch.head += job.events.size();
  for (const Hash& leaf : job.leaves) batch.range.Append(leaf);
  if (game_over) batch.ended_games.push_back(job.game_id);
  batch.revisions[job.game_id] = revision;
  std::shared_ptr<GameJudge> kept = std::move(fold);
  job.fold = kept;
  batch.folds[job.game_id] = std::move(kept);
}

}  // namespace

absl::StatusOr<std::vector<v1::LedgerEntry>> AppendOnto(AppendJob& job, AppendBatch& batch,
                                                        Judge& judge_of, AppendRows& rows) {
  if (job.tournament()) return AppendTournamentOnto(job, batch, rows);
  // A venue's append is never a retry of recorded events: it claims a new game.
  const bool from_venue = !job.venue_key_der.empty();
  absl::StatusOr<std::vector<uint64_t>> recorded =
      from_venue ? std::vector<uint64_t>() : RecordedPositions(job, rows);
  if (!recorded.ok()) return recorded.status();
  if (!recorded->empty()) {
    job.recorded = true;
    return RecordedEntries(*recorded, rows);
  }

  absl::StatusOr<uint64_t> head = StreamRevision(job.game_id, batch, rows);
  if (!head.ok()) return head.status();
  const uint64_t current = *head;
  if (absl::Status s = CheckAgainstStream(job.game_id, job.events, current, job.expected);
      !s.ok()) {
    return s;
  }
  if (from_venue) {
    if (absl::Status s = ClaimForVenue(job, rows); !s.ok()) return s;
  }
  absl::StatusOr<std::unique_ptr<GameJudge>> fold =
      WorkingFold(job, current, batch, judge_of, rows);
  if (!fold.ok()) return fold.status();
  GameJudge* judge = fold->get();
  const uint64_t revision = current + job.events.size();
  if (absl::Status s = rows.AdvanceStream(job.game_id, revision); !s.ok()) return s;

  std::vector<v1::LedgerEntry> out;
  bool game_over = false;
  if (absl::Status s = JudgeAndWrite(job, batch.head, current, *judge, rows, out, game_over);
      !s.ok()) {
    return s;
  }
  if (job.dry_run) {
    // Its rows are rolled back by the store, its fold dropped here: the
    // batch goes on as if it had never come.
    if (const v1::Result* result = judge->result(); result != nullptr) job.result = *result;
    return out;
  }
  KeepInBatch(job, *std::move(fold), game_over, revision, batch);
  return out;
}

}  // namespace arbiter::ledger
