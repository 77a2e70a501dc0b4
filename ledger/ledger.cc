#include "ledger/ledger.h"

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "ledger/bundle.h"
#include "ledger/internal/checkpoint_note.h"
#include "ledger/internal/store_writer.h"
#include "ledger/merkle.h"
#include "ledger/reader_pool.h"
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

  // Runs `fn` on the proof tree once it holds the first `tree_size` leaves.
  // The tree only grows, by the leaves it has not read yet: the log is
  // append-only, so a tree over its first n leaves answers every proof
  // within n from then on. Without it each proof read and hashed the whole
  // log (an auditor fetching a game's 250 proofs read it 250 times). It
  // holds every perfect subtree: about 64 bytes per event.
  template <typename Fn>
  auto WithProofTree(uint64_t tree_size, Fn fn) -> decltype(fn(std::declval<const MerkleTree&>())) {
    absl::MutexLock lock(&proof_tree_mu_);
    if (const uint64_t have = proof_tree_.size(); have < tree_size) {
      absl::StatusOr<std::vector<Hash>> leaves =
          WithReader([&](LogSource& r) { return r.LeafHashes(tree_size, have); });
      if (!leaves.ok()) return leaves.status();
      for (const Hash& leaf : *leaves) proof_tree_.Append(leaf);
    }
    return fn(proof_tree_);
  }

  const std::shared_ptr<ReaderPool> readers_;  // shared with the judge's reads, maybe
  Store* const store_;                         // the readers' store
  std::unique_ptr<StoreWriter> writer_;
  CheckpointIndex checkpoints_;
  absl::Mutex proof_tree_mu_;
  MerkleTree proof_tree_ ABSL_GUARDED_BY(proof_tree_mu_);
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

absl::StatusOr<std::vector<v1::LedgerEntry>> Ledger::Append(const std::string& game_id,
                                                            ExpectedRevision expected,
                                                            std::vector<v1::Event> events) {
  return impl_->writer_->queue().Append(game_id, expected, std::move(events));
}

absl::StatusOr<std::vector<v1::LedgerEntry>> Ledger::AppendFromVenue(
    const std::string& game_id, std::vector<v1::Event> events, const std::string& venue_key_der) {
  if (venue_key_der.empty()) return absl::InvalidArgumentError("a venue's append names its key");
  return impl_->writer_->queue().Append(game_id, ExpectedRevision::Exactly(0), std::move(events),
                                        venue_key_der);
}

absl::StatusOr<std::vector<v1::LedgerEntry>> Ledger::AppendTournament(
    const std::string& tournament_id, ExpectedRevision expected,
    std::vector<v1::TournamentEvent> events, std::vector<StreamAt> derived_from) {
  absl::StatusOr<std::string> stream = TournamentStream(tournament_id);
  if (!stream.ok()) return stream.status();
  return impl_->writer_->queue().AppendTournament(*std::move(stream), expected, std::move(events),
                                                  std::move(derived_from));
}

absl::StatusOr<std::vector<v1::LedgerEntry>> Ledger::AppendTournamentFromVenue(
    const std::string& tournament_id, std::vector<v1::TournamentEvent> events,
    const std::string& venue_key_der) {
  if (venue_key_der.empty()) return absl::InvalidArgumentError("a venue's append names its key");
  absl::StatusOr<std::string> stream = TournamentStream(tournament_id);
  if (!stream.ok()) return stream.status();
  return impl_->writer_->queue().AppendTournament(*std::move(stream), ExpectedRevision::Exactly(0),
                                                  std::move(events), {}, venue_key_der);
}

void Ledger::AppendAsync(const std::string& game_id, ExpectedRevision expected,
                         std::vector<v1::Event> events, AppendCallback done) {
  impl_->writer_->queue().AppendAsync(game_id, expected, std::move(events), std::move(done));
}

void Ledger::AppendWithFold(const std::string& game_id, ExpectedRevision expected,
                            std::vector<v1::Event> events, CommitCallback done) {
  impl_->writer_->queue().AppendWithFold(game_id, expected, std::move(events), std::move(done));
}

void Ledger::PreviewAsync(const std::string& game_id, ExpectedRevision expected,
                          std::vector<v1::Event> events, PreviewCallback done) {
  impl_->writer_->queue().PreviewAsync(game_id, expected, std::move(events), std::move(done));
}

absl::StatusOr<v1::Checkpoint> Ledger::Checkpoint() { return impl_->writer_->queue().Checkpoint(); }

absl::StatusOr<uint64_t> Ledger::Head() {
  return impl_->WithReader([](LogSource& r) { return r.Head(); });
}

absl::StatusOr<std::vector<v1::LedgerEntry>> Ledger::ReadLog(uint64_t after_position, size_t max) {
  return impl_->WithReader([&](LogSource& r) { return r.ReadLog(after_position, max); });
}

absl::StatusOr<std::vector<Arrival>> Ledger::Arrivals(uint64_t after_position, size_t max) {
  return impl_->WithReader([&](LogSource& r) { return r.Arrivals(after_position, max); });
}

absl::StatusOr<std::vector<v1::LedgerEntry>> Ledger::ReadGame(const std::string& game_id,
                                                              uint64_t after_revision, size_t max) {
  return impl_->WithReader([&](LogSource& r) { return r.ReadGame(game_id, after_revision, max); });
}

absl::StatusOr<uint64_t> Ledger::GameRevision(const std::string& game_id) {
  return impl_->WithReader([&](LogSource& r) { return r.GameRevision(game_id); });
}

absl::StatusOr<std::optional<v1::LedgerEntry>> Ledger::FindByKey(const std::string& game_id,
                                                                 const std::string& key) {
  return impl_->WithReader([&](LogSource& r) { return r.FindKey(game_id, key); });
}

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

absl::StatusOr<std::vector<std::string>> Ledger::ListTournaments() {
  return impl_->WithReader([](LogSource& r) { return r.ListTournaments(); });
}

absl::StatusOr<std::vector<GameListing>> Ledger::ListGames(uint64_t after, size_t max) {
  return impl_->WithReader([&](LogSource& r) { return r.ListGames(after, max); });
}

absl::StatusOr<std::string> Ledger::RulesPin(const std::string& game_id) {
  return impl_->WithReader([&](LogSource& r) { return r.RulesPin(game_id); });
}

absl::StatusOr<AuditReport> Ledger::Audit(const AuditOptions& options) {
  return impl_->store_->Audit(options);
}

absl::StatusOr<v1::AuditBundle> Ledger::ExportBundle(const std::string& game_id) {
  absl::StatusOr<uint64_t> revision = GameRevision(game_id);
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

absl::StatusOr<std::vector<v1::Checkpoint>> Ledger::Checkpoints() {
  return impl_->WithReader([](LogSource& r) { return r.Checkpoints(); });
}

absl::StatusOr<InclusionProofResult> Ledger::ProveInclusion(uint64_t position, uint64_t tree_size) {
  if (position == 0 || position > tree_size) {
    return absl::OutOfRangeError(
        absl::StrCat("position ", position, " is not in a tree of size ", tree_size));
  }
  absl::StatusOr<std::vector<Hash>> path = impl_->WithProofTree(
      tree_size, [&](const MerkleTree& t) { return t.InclusionProof(position - 1, tree_size); });
  if (!path.ok()) return path.status();
  return InclusionProofResult{tree_size, *std::move(path)};
}

absl::StatusOr<std::vector<Hash>> Ledger::ProveConsistency(uint64_t old_size, uint64_t new_size) {
  if (old_size > new_size) {
    return absl::OutOfRangeError(absl::StrCat("tree size ", old_size, " exceeds ", new_size));
  }
  return impl_->WithProofTree(
      new_size, [&](const MerkleTree& t) { return t.ConsistencyProof(old_size, new_size); });
}

CheckpointIndex& Ledger::checkpoint_index() { return impl_->checkpoints_; }

std::shared_ptr<CommitFeed> Ledger::commit_feed() {
  std::shared_ptr<CommitWatch> watch = impl_->writer_->watch();
  return std::shared_ptr<CommitFeed>(watch, &watch->feed());
}

absl::StatusOr<std::vector<Hash>> Ledger::PerfectSubtrees(int height, uint64_t first,
                                                          uint64_t count) {
  if (height < 0 || height >= 64 || first + count < first ||
      (first + count) > (~uint64_t{0} >> height)) {
    return absl::OutOfRangeError("no such subtrees in any log");
  }
  const uint64_t tree_size = (first + count) << height;
  absl::StatusOr<uint64_t> head = Head();
  if (!head.ok()) return head.status();
  if (*head < tree_size) {
    return absl::OutOfRangeError(
        absl::StrCat("the log holds ", *head, " events, not the ", tree_size, " asked for"));
  }
  return impl_->WithProofTree(
      tree_size, [&](const MerkleTree& t) { return t.PerfectSubtrees(height, first, count); });
}

bool Ledger::shared() const { return impl_->store_->shared(); }

const std::string& Ledger::public_key_der() const {
  return impl_->writer_->signer().public_key_der();
}
std::string Ledger::PublicKeyPem() const { return impl_->writer_->signer().PublicKeyPem(); }
const std::string& Ledger::log_origin() const { return impl_->writer_->signer().origin(); }
std::string Ledger::VerifierKey() const { return impl_->writer_->signer().VerifierKey(); }
absl::StatusOr<std::string> Ledger::CheckpointNote(const v1::Checkpoint& checkpoint) const {
  return ledger::CheckpointNote(checkpoint, impl_->writer_->signer());
}

}  // namespace arbiter::ledger
