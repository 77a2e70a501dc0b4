#include "ledger/ledger.h"

#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "ledger/bundle.h"
#include "ledger/internal/append_job.h"
#include "ledger/internal/checkpoint_note.h"
#include "ledger/internal/store_writer.h"
#include "ledger/merkle.h"
#include "ledger/reader_pool.h"
#include "ledger/signer.h"
#include "ledger/store.h"
#include "ledger/stream.h"
#include "proto/canonical/canonical_bytes.h"

namespace arbiter::ledger {

class Ledger::Impl {
 public:
  Impl(std::shared_ptr<ReaderPool> readers, std::unique_ptr<StoreWriter> writer)
      : readers_(std::move(readers)),
        store_(&readers_->store()),
        writer_(std::move(writer)),
        checkpoints_(
            [this](uint64_t first, uint64_t last) {
              return WithReader([&](LogSource& r) { return r.CheckpointsBetween(first, last); });
            },
            std::shared_ptr<CommitFeed>(writer_->watch(), &writer_->watch()->feed())) {}

  // Runs `fn` on a pooled read connection.
  template <typename Fn>
  auto WithReader(Fn fn) -> decltype(fn(std::declval<LogSource&>())) {
    return readers_->With(std::move(fn));
  }

  const std::shared_ptr<ReaderPool> readers_;  // shared with the judge's reads, maybe
  Store* const store_;                         // the readers' store
  std::unique_ptr<StoreWriter> writer_;
  CheckpointIndex checkpoints_;
  LogProofs proofs_{*readers_};
  LogIdentity identity_{writer_->signer()};
};

Ledger::Ledger(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Ledger::~Ledger() = default;

absl::StatusOr<std::unique_ptr<Ledger>> Ledger::Open(LedgerOptions options) {
  if (options.judge == nullptr) return absl::InvalidArgumentError("the ledger needs a judge");
  if (options.dir.empty()) return absl::InvalidArgumentError("the ledger needs a data directory");
  std::shared_ptr<ReaderPool> readers = options.readers;
  if (readers == nullptr) {
    absl::StatusOr<std::unique_ptr<Store>> store = OpenStore(options.dir, {options.vfs});
    if (!store.ok()) return store.status();
    readers = std::make_shared<ReaderPool>(*std::move(store));
  }
  options.readers.reset();  // the writer needs none (and keeps its options)
  absl::StatusOr<std::unique_ptr<StoreWriter>> writer =
      readers->store().OpenWriter(std::move(options));
  if (!writer.ok()) return writer.status();
  return std::unique_ptr<Ledger>(
      new Ledger(std::make_unique<Impl>(std::move(readers), *std::move(writer))));
}

namespace {

// What a request asks that no stream takes: INVALID_ARGUMENT, or OK.
absl::Status CheckRequest(const AppendRequest& r) {
  const bool tournament = r.stream == AppendRequest::Stream::kTournament;
  if (tournament ? !r.events.empty() : !r.tournament_events.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("the append to '", r.id, "' carries events of the other kind of stream"));
  }
  if (!tournament && !r.derived_from.empty()) {
    return absl::InvalidArgumentError("a game's append is derived from no other stream");
  }
  if (tournament && r.preview) return absl::InvalidArgumentError("a tournament has no preview");
  if (!r.venue_key_der.empty() && (r.expected.any() || r.expected.revision() != 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("a venue's append to '", r.id, "' begins its stream: expected revision 0"));
  }
  return absl::OkStatus();
}

// Fills `job` with what `request` asks: the one place a request becomes a
// job, queued (Ledger::Append) or waited for (AppendAndWait).
// INVALID_ARGUMENT for a tournament id that names no stream.
absl::Status FillJob(AppendRequest request, AppendJob& job) {
  absl::StatusOr<std::string> stream = request.stream == AppendRequest::Stream::kTournament
                                           ? TournamentStream(request.id)
                                           : absl::StatusOr<std::string>(std::move(request.id));
  if (!stream.ok()) return stream.status();
  job.game_id = *std::move(stream);
  job.expected = request.expected;
  job.events = std::move(request.events);
  job.tournament_events = std::move(request.tournament_events);
  job.derived_from = std::move(request.derived_from);
  job.venue_key_der = std::move(request.venue_key_der);
  job.synced = request.synced;
  job.dry_run = request.preview;
  return absl::OkStatus();
}

// The queued job `request` is, answering `done`; nullptr after answering
// `done` with the request's error.
AppendJob* JobFor(AppendRequest request, OnAppended& done) {
  auto job = std::make_unique<AppendJob>();
  if (absl::Status s = FillJob(std::move(request), *job); !s.ok()) {
    done(s);
    return nullptr;
  }
  return job.release();
}

}  // namespace

void Ledger::Append(AppendRequest request, OnAppended done) {
  if (absl::Status s = CheckRequest(request); !s.ok()) return done(s);
  const bool preview = request.preview;
  AppendJob* job = JobFor(std::move(request), done);
  if (job == nullptr) return;
  if (preview) {
    job->preview = [done = std::move(done)](absl::StatusOr<AppendPreview> p) {
      if (!p.ok()) return done(p.status());
      done(Appended{std::move(p->entries), nullptr, p->recorded, std::move(p->result)});
    };
  } else {
    job->committed = [done = std::move(done)](absl::StatusOr<Committed> c) {
      if (!c.ok()) return done(c.status());
      done(Appended{std::move(c->entries), std::move(c->fold)});
    };
  }
  impl_->writer_->queue().Launch(job);
}

absl::StatusOr<std::vector<v1::LedgerEntry>> Ledger::AppendAndWait(AppendRequest request) {
  if (absl::Status s = CheckRequest(request); !s.ok()) return s;
  AppendQueue& queue = impl_->writer_->queue();
  if (request.preview) {
    // A dry run is only ever queued (PreviewAsync's path): waited for here.
    absl::StatusOr<Appended> out;
    absl::Notification answered;
    Append(std::move(request), [&](absl::StatusOr<Appended> a) {
      out = std::move(a);
      answered.Notify();
    });
    answered.WaitForNotification();
    if (!out.ok()) return out.status();
    return std::move(out->entries);
  }
  AppendJob job;
  if (absl::Status s = FillJob(std::move(request), job); !s.ok()) return s;
  return queue.Run(job);
}

absl::StatusOr<v1::Checkpoint> Ledger::Checkpoint() { return impl_->writer_->queue().Checkpoint(); }

LogSource& Ledger::log() { return *impl_->readers_; }

absl::StatusOr<std::vector<v1::TournamentEvent>> Ledger::ReadTournament(
    const std::string& tournament_id) {
  absl::StatusOr<std::string> stream = TournamentStream(tournament_id);
  if (!stream.ok()) return stream.status();
  std::vector<v1::TournamentEvent> out;
  for (;;) {
    absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
        impl_->WithReader([&](LogSource& r) { return r.ReadGame(*stream, out.size(), 1024); });
    if (!entries.ok()) return entries.status();
    if (entries->empty()) break;
    for (const v1::LedgerEntry& e : *entries) {
      absl::StatusOr<v1::TournamentEvent> event = ParseCanonical<v1::TournamentEvent>(e.event());
      if (!event.ok()) {
        return absl::DataLossError(absl::StrCat("tournament '", tournament_id, "' event ",
                                                e.revision(), ": ", event.status().message()));
      }
      out.push_back(*std::move(event));
    }
  }
  if (out.empty()) return absl::NotFoundError(absl::StrCat("no tournament '", tournament_id, "'"));
  return out;
}

absl::StatusOr<AuditReport> Ledger::Audit(const AuditOptions& options) {
  return impl_->store_->Audit(options);
}

absl::StatusOr<v1::AuditBundle> Ledger::ExportBundle(const std::string& game_id) {
  absl::StatusOr<uint64_t> revision = log().GameRevision(game_id);
  if (!revision.ok()) return revision.status();
  if (*revision == 0)
    return absl::NotFoundError(absl::StrCat("game '", game_id, "' does not exist"));
  absl::StatusOr<v1::AuditBundle> bundle =
      impl_->WithReader([&](LogSource& r) { return ledger::ExportBundle(r, game_id); });
  if (absl::IsFailedPrecondition(bundle.status())) {
    // No checkpoint covers the game's last event yet: sign one now.
    if (absl::StatusOr<v1::Checkpoint> c = Checkpoint(); !c.ok()) return c.status();
    bundle = impl_->WithReader([&](LogSource& r) { return ledger::ExportBundle(r, game_id); });
  }
  return bundle;
}

template <typename Fn>
auto LogProofs::WithTree(uint64_t tree_size, Fn fn)
    -> decltype(fn(std::declval<const MerkleTree&>())) {
  absl::MutexLock lock(&mu_);
  if (const uint64_t have = tree_.size(); have < tree_size) {
    absl::StatusOr<std::vector<Hash>> leaves = log_.LeafHashes(tree_size, have);
    if (!leaves.ok()) return leaves.status();
    for (const Hash& leaf : *leaves) tree_.Append(leaf);
  }
  return fn(tree_);
}

absl::StatusOr<InclusionProofResult> LogProofs::ProveInclusion(uint64_t position,
                                                               uint64_t tree_size) {
  if (position == 0 || position > tree_size) {
    return absl::OutOfRangeError(
        absl::StrCat("position ", position, " is not in a tree of size ", tree_size));
  }
  absl::StatusOr<std::vector<Hash>> path = WithTree(
      tree_size, [&](const MerkleTree& t) { return t.InclusionProof(position - 1, tree_size); });
  if (!path.ok()) return path.status();
  return InclusionProofResult{tree_size, *std::move(path)};
}

absl::StatusOr<std::vector<Hash>> LogProofs::ProveConsistency(uint64_t old_size,
                                                              uint64_t new_size) {
  if (old_size > new_size) {
    return absl::OutOfRangeError(absl::StrCat("tree size ", old_size, " exceeds ", new_size));
  }
  return WithTree(new_size,
                  [&](const MerkleTree& t) { return t.ConsistencyProof(old_size, new_size); });
}

CheckpointIndex& Ledger::checkpoint_index() { return impl_->checkpoints_; }

LogProofs& Ledger::proofs() { return impl_->proofs_; }

absl::StatusOr<std::vector<Hash>> LogProofs::PerfectSubtrees(int height, uint64_t first,
                                                             uint64_t count) {
  if (height < 0 || height >= 64 || first + count < first ||
      (first + count) > (~uint64_t{0} >> height)) {
    return absl::OutOfRangeError("no such subtrees in any log");
  }
  const uint64_t tree_size = (first + count) << height;
  absl::StatusOr<uint64_t> head = log_.Head();
  if (!head.ok()) return head.status();
  if (*head < tree_size) {
    return absl::OutOfRangeError(
        absl::StrCat("the log holds ", *head, " events, not the ", tree_size, " asked for"));
  }
  return WithTree(tree_size,
                  [&](const MerkleTree& t) { return t.PerfectSubtrees(height, first, count); });
}

std::shared_ptr<CommitFeed> Ledger::commit_feed() {
  std::shared_ptr<CommitWatch> watch = impl_->writer_->watch();
  return std::shared_ptr<CommitFeed>(watch, &watch->feed());
}

bool Ledger::shared() const { return impl_->store_->shared(); }

const LogIdentity& Ledger::identity() const { return impl_->identity_; }

const std::string& LogIdentity::public_key_der() const { return signer_.public_key_der(); }
std::string LogIdentity::PublicKeyPem() const { return signer_.PublicKeyPem(); }
const std::string& LogIdentity::origin() const { return signer_.origin(); }
std::string LogIdentity::VerifierKey() const { return signer_.VerifierKey(); }
absl::StatusOr<std::string> LogIdentity::CheckpointNote(const v1::Checkpoint& checkpoint) const {
  return ledger::CheckpointNote(checkpoint, signer_);
}

AppendRequest AppendRequest::Game(std::string game_id, ExpectedRevision expected,
                                  std::vector<v1::Event> events) {
  AppendRequest r;
  r.id = std::move(game_id);
  r.expected = expected;
  r.events = std::move(events);
  return r;
}

AppendRequest AppendRequest::Tournament(std::string tournament_id, ExpectedRevision expected,
                                        std::vector<v1::TournamentEvent> events,
                                        std::vector<StreamAt> derived_from) {
  AppendRequest r;
  r.stream = Stream::kTournament;
  r.id = std::move(tournament_id);
  r.expected = expected;
  r.tournament_events = std::move(events);
  r.derived_from = std::move(derived_from);
  return r;
}

}  // namespace arbiter::ledger
