#include "adjudicator/service/witness_feed.h"

#include <algorithm>
#include <cstdio>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "httplib.h"
#include "ledger/signed_note.h"
#include "ledger/thread_name.h"

namespace arbiter::service {
namespace {

constexpr absl::Duration kFirstBackoff = absl::Seconds(1);
constexpr absl::Duration kMaxBackoff = absl::Minutes(1);
constexpr time_t kRequestSeconds = 10;

// "http://HOST:PORT" and "/PREFIX" of a URL; false if it is not one.
bool SplitUrl(absl::string_view url, std::string* origin, std::string* prefix) {
  absl::string_view rest = url;
  if (!absl::ConsumePrefix(&rest, "http://") || rest.empty()) return false;
  const size_t slash = rest.find('/');
  const absl::string_view host = rest.substr(0, slash);
  if (host.empty() || host.find(':') == absl::string_view::npos) return false;
  *origin = absl::StrCat("http://", host);
  *prefix = slash == absl::string_view::npos ? "" : std::string(rest.substr(slash));
  while (!prefix->empty() && prefix->back() == '/') prefix->pop_back();
  return true;
}

}  // namespace

struct WitnessFeed::Witnessed {
  Witnessed(Target t, std::string origin, std::string prefix)
      : target(std::move(t)), client(origin), path(absl::StrCat(prefix, "/add-checkpoint")) {
    client.set_connection_timeout(kRequestSeconds);
    client.set_read_timeout(kRequestSeconds);
    client.set_write_timeout(kRequestSeconds);
    client.set_keep_alive(true);
  }
  Target target;
  httplib::Client client;
  std::string path;
  // The size the witness holds for this log, once it said (200 or 409).
  std::optional<uint64_t> cosigned;
  absl::Time retry_at = absl::InfinitePast();
  absl::Duration backoff = kFirstBackoff;
  std::string last_error;  // said once, not at every retry
};

absl::StatusOr<std::vector<WitnessFeed::Target>> WitnessFeed::ParseTargets(
    const std::vector<std::string>& urls) {
  std::vector<Target> targets;
  for (const std::string& arg : urls) {
    const size_t eq = arg.find('=');
    std::string origin, prefix;
    if (eq == std::string::npos || !SplitUrl(arg.substr(0, eq), &origin, &prefix)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--witness '", arg, "': URL=VKEY, the URL http://HOST:PORT[/PREFIX]"));
    }
    absl::StatusOr<ledger::CosignatureVerifier> key =
        ledger::CosignatureVerifier::FromVerifierKey(arg.substr(eq + 1));
    if (!key.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("--witness: ", key.status().message()));
    }
    targets.push_back(Target{arg.substr(0, eq), *std::move(key)});
  }
  return targets;
}

WitnessFeed::WitnessFeed(ledger::Ledger* ledger, std::vector<Target> targets,
                         ledger::CosignatureStore* store)
    : ledger_(ledger), store_(store), commits_(ledger->commit_feed()) {
  for (Target& t : targets) {
    std::string origin, prefix;
    SplitUrl(t.url, &origin, &prefix);  // checked by ParseTargets
    witnesses_.push_back(std::make_unique<Witnessed>(std::move(t), origin, prefix));
  }
  // On the writer's thread: only flag and wake.
  listener_ = commits_->AddListener([this](uint64_t) {
    absl::MutexLock lock(&mu_);
    committed_ = true;
  });
  thread_ = std::thread([this] {
    NameThisThread("witness");
    Run();
  });
}

WitnessFeed::~WitnessFeed() { Stop(); }

void WitnessFeed::Stop() {
  commits_->RemoveListener(listener_);  // none runs after this returns
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  if (thread_.joinable()) thread_.join();
}

bool WitnessFeed::stopping() {
  absl::MutexLock lock(&mu_);
  return stopping_;
}

void WitnessFeed::Run() {
  v1::Checkpoint latest;
  std::string note;
  uint64_t read_for = 0;  // the feed's checkpointed() when the checkpoints were last read
  bool must_read = true;  // the first look, or a read that failed
  absl::Time wake_at = absl::InfiniteFuture();  // a retry's, else none: commits wake it
  for (;;) {
    {
      absl::MutexLock lock(&mu_);
      auto woken = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return committed_ || stopping_; };
      mu_.AwaitWithDeadline(absl::Condition(&woken), wake_at);
      if (stopping_) return;
      committed_ = false;
    }
    wake_at = absl::InfiniteFuture();
    // Most commits sign no checkpoint: then nothing is read.
    const uint64_t signed_size = commits_->checkpointed();
    if (must_read || signed_size > read_for) {
      // The newest one, from the index (none signed yet is no error).
      absl::StatusOr<v1::Checkpoint> newest = ledger_->checkpoint_index().Latest();
      must_read = !newest.ok() && !absl::IsNotFound(newest.status());
      if (must_read) {
        wake_at = absl::Now() + kFirstBackoff;
      } else {
        read_for = signed_size;
        // A checkpoint signed before notes has none: the next one will.
        if (newest.ok() && newest->tree_size() > latest.tree_size() && !newest->note().empty()) {
          latest = *std::move(newest);
          note = latest.note();
        }
      }
    }
    if (note.empty()) continue;
    for (auto& w : witnesses_) {
      if (w->cosigned == latest.tree_size()) continue;
      if (absl::Now() >= w->retry_at) {
        if (stopping()) return;
        Send(*w, latest, note);
      }
      if (w->cosigned != latest.tree_size()) wake_at = std::min(wake_at, w->retry_at);
    }
  }
}

void WitnessFeed::Send(Witnessed& w, const v1::Checkpoint& checkpoint, const std::string& note) {
  auto failed = [&](const std::string& why) {
    if (why != w.last_error) {
      std::fprintf(stderr, "arbiter serve: witness %s: %s (retrying)\n", w.target.url.c_str(),
                   why.c_str());
      w.last_error = why;
    }
    w.retry_at = absl::Now() + w.backoff;
    w.backoff = std::min(w.backoff * 2, kMaxBackoff);
  };
  // Twice at most: a first 409 says the size to prove from.
  for (int attempt = 0; attempt < 2; ++attempt) {
    const uint64_t old = w.cosigned.value_or(0);
    if (old > checkpoint.tree_size()) {
      return failed(
          absl::StrCat("it holds size ", old, ", beyond this log's ", checkpoint.tree_size()));
    }
    std::string body = absl::StrCat("old ", old, "\n");
    if (old > 0) {
      absl::StatusOr<std::vector<ledger::Hash>> proof =
          ledger_->proofs().ProveConsistency(old, checkpoint.tree_size());
      if (!proof.ok()) return failed(std::string(proof.status().message()));
      for (const ledger::Hash& h : *proof) {
        absl::StrAppend(&body, absl::Base64Escape(AsBytes(h)), "\n");
      }
    }
    absl::StrAppend(&body, "\n", note);
    httplib::Result res = w.client.Post(w.path, body, "text/plain");
    if (!res) return failed(absl::StrCat("unreachable: ", httplib::to_string(res.error())));
    if (res->status == 409) {
      uint64_t size = 0;
      if (!absl::SimpleAtoi(absl::StripSuffix(res->body, "\n"), &size)) {
        return failed("a 409 without a size");
      }
      w.cosigned = size;
      continue;
    }
    if (res->status != 200) {
      return failed(absl::StrCat("HTTP ", res->status, ": ",
                                 absl::StripSuffix(res->body.substr(0, 200), "\n")));
    }
    // The answer's lines after the checkpoint make a note whose signatures
    // are checked as any note's; only this witness's valid ones are kept.
    absl::StatusOr<ledger::SignedNote> cosigned =
        ledger::ParseSignedNote(absl::StrCat(note, res->body));
    if (!cosigned.ok()) return failed(std::string(cosigned.status().message()));
    int kept = 0;
    for (const ledger::NoteSignature& sig : cosigned->signatures) {
      if (!w.target.key.Names(sig) || !w.target.key.Verify(cosigned->text, sig).ok()) continue;
      absl::StatusOr<std::string> line =
          ledger::FormatSignedNote(ledger::SignedNote{cosigned->text, {sig}});
      if (!line.ok()) continue;
      if (absl::Status s =
              store_->Add(checkpoint.tree_size(), line->substr(cosigned->text.size() + 1));
          !s.ok()) {
        return failed(std::string(s.message()));
      }
      ++kept;
    }
    if (kept == 0) return failed("no valid cosignature by its key in the answer");
    w.cosigned = checkpoint.tree_size();
    w.backoff = kFirstBackoff;
    w.last_error.clear();
    return;
  }
  failed("two 409s in a row");
}

}  // namespace arbiter::service
