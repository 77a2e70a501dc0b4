// Load on the arbiter.v1 service through gRPC on 127.0.0.1: the real server
// (ledger with group commit and synchronous=FULL, the adjudicator judging
// every event, the read model) in this process, driven by gRPC clients over
// loopback TCP. Games are the shared SGF records (tests/data/sgf)
// turned into events, each recorded one AppendEvents per event, as a clock
// or an arbiter's desk would.
//
//   BM_FullSpeed/C      C client threads, each recording game after game as
//                       fast as the answers come (C concurrent games).
//   BM_TournamentPace/G G games at once, each sending one event every
//                       second (a busy tournament hall: real games average a
//                       move every 20-60 s; this is 20-60x that pace).
//   BM_AppendVsBareCall/C  C clients alternate, on one server, rounds of
//                       one-event appends (each durable, judged, folded)
//                       with rounds of bare calls (grpc.health.v1 Check:
//                       the same server, interceptor and connection, no
//                       work); reports both rates and the append's share of
//                       the bare rate, the median over BENCH_ROUNDS rounds.
//                       Each round also times a bare durable SQLite commit
//                       loop (one thread, one row a transaction, WAL and
//                       synchronous=FULL, on the server's disk): one client's
//                       appends wait for one such commit each, so its rate
//                       over the bare call's (`fsync_bound_pct`) is what a
//                       lone client's ratio can reach at most; C clients'
//                       appends can share a commit at most C ways
//                       (`group_commit_bound_pct`, C times that, at most
//                       100). The same rounds run against a second server
//                       whose ledger is in memory (tmpfs, SERVICE_BENCH_MEMDIR,
//                       by default /dev/shm): `mem_ratio_pct` is the ratio
//                       with the disk taken out, the service's own path (its
//                       commits are not durable: a measurement, never a
//                       configuration). `cpu_us_per_append` and
//                       `cpu_us_per_bare_call` are the server's CPU per call
//                       (getrusage of the process over the round minus the
//                       client threads' own CPU time), which a loaded
//                       machine moves far less than the rates.
//   BM_StreamAppends/C  the RecordEvents stream appends of AppendVsPostgres
//                       alone, for BENCH_SECONDS: the run to profile
//                       (`perf record -g`), and the server's CPU per append
//                       with nothing else in the process.
//   BM_AppendVsPostgres/C  issue 32.2's target, in rounds alternated in one
//                       run: C clients' full-speed durable one-event appends
//                       through gRPC (as above, on the server's disk) against
//                       C threads' durable one-row INSERTs through libpq into
//                       a throwaway PostgreSQL 15 cluster this benchmark
//                       starts on the same disk (tests/support/pg_cluster.h:
//                       fsync and synchronous_commit on; each INSERT its own
//                       transaction, 200 bytes of bytea, one connection per
//                       thread): `ratio_to_pg_pct` (target: 100 or more at 8
//                       and 32). At one client the rounds also time a bare
//                       gRPC call and one durable SQLite commit: a lone
//                       append costs at least both, one after the other, so
//                       `serial_bound_per_s` = 1 / (1/bare + 1/commit) and
//                       `ratio_to_bound_pct` (target: 70 or more), and
//                       `gap_to_pg_us` what an append costs over an INSERT.
//                       Every round also times bare calls (as above) at C
//                       clients: `bare_to_pg_pct` is what an append that
//                       cost the server nothing could reach against the
//                       INSERTs.
//                       `cpu_us_per_append` is the server's CPU (as above);
//                       `client_cpu_us_per_append` and `..._per_insert` the
//                       calling threads' own (gRPC's client against libpq's),
//                       which share the machine's cores with the servers.
//                       `switches_per_append` and `..._per_bare_call`: the
//                       process's context switches per call (server and
//                       client), each a paravirtual wake-up on this VM.
//                       `append_p50_us`, `bare_call_p50_us` and
//                       `insert_p50_us`: a call's median time as its client
//                       saw it (at C clients, C of them in flight).
//                       The same appends are also timed as requests on one
//                       RecordEvents stream per client (open across rounds,
//                       each request waiting for its answer):
//                       `stream_appends_per_s`, `stream_ratio_to_pg_pct`,
//                       at one client `stream_ratio_to_bound_pct` (against
//                       the same bound, whose bare call is a unary one),
//                       `stream_append_p50_us`, `stream_append_p99_us`,
//                       `cpu_us_per_stream_append`.
//                       With SERVICE_BENCH_TOKEN=chief, the servers of
//                       AppendVsBareCall, StreamAppends and AppendVsPostgres
//                       hold a CHIEF_ARBITER token and every call carries it
//                       (looked up on every call and every stream message).
//                       Without PostgreSQL's binaries (ARBITER_PG_BIN, else
//                       /usr/lib/postgresql/15/bin) it says so and measures
//                       the rest.
//
// Each run lasts a fixed time (BENCH_SECONDS, default 3 s) and reports the
// events recorded per second and the acknowledgement latency p50/p99/max.
// Run: build/bin/service_load_bench   (SERVICE_BENCH_DIR picks the disk,
// SERVICE_BENCH_MEMDIR the memory directory of AppendVsBareCall)
//
// SERVICE_BENCH_CHECKPOINTS (issue 33.6) sets what the server signs:
// unset, as `arbiter serve` does by default (a checkpoint every 1000
// events and within 1 s of any write, and at every game's end); `none`, only
// the game-end checkpoints (no periodic or tail-bound signing); `witnessed`,
// the default signing and every new checkpoint sent to a witness, a second
// server in this process (`serve --witness-key`), whose cosignatures the
// server keeps: alternate `none` and `witnessed` to see what signing and
// witnessing cost an append.
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "adjudicator/service/auth_tokens.h"
#include "adjudicator/service/server.h"
#include "arbiter/v1/service.grpc.pb.h"
#include "benchmark/benchmark.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "ledger/cosignature_store.h"
#include "ledger/note_key.h"
#include "ledger/postgres/pg.h"
#include "ledger/signer.h"
#include "ledger/sqlite.h"
#include "ledger/sqlite/wal_checkpointer.h"
#include "tests/bench/bench_main.h"
#include "tests/bench/bench_rounds.h"
#include "tests/bench/sgf_games.h"
#include "tests/support/pg_cluster.h"
#include "tests/support/temp_dir.h"

namespace arbiter {

// Calls refused or failed in any run: the exit status says so.
std::atomic<int> failed_calls{0};

namespace {

using bench::Median;

const std::vector<std::vector<v1::Event>>& Games() {
  static const auto* games = new std::vector<std::vector<v1::Event>>(bench::SgfGames());
  return *games;
}

double Seconds() { return bench::BenchSeconds(3.0); }

// A server on a fresh data directory, for one run.
class BenchServer {
 public:
  // `parent`: the directory its data directory is made in ("" for the
  // default temporary directory).
  explicit BenchServer(const std::string& parent = DiskDir()) : dir_{"service-bench", parent} {
    service::ServerOptions options;
    options.data_dir = dir_.File("data");
    options.listen = "127.0.0.1:0";
    // Every client here is one anonymous host, so the per-caller rate limit
    // would measure itself; this measures the service behind it.
    options.limits.writes_per_second = 0;
    options.limits.reads_per_second = 0;
    service::TurnOffDeadlockDetection();  // as `arbiter serve` does
    const char* checkpoints = getenv("SERVICE_BENCH_CHECKPOINTS");
    const std::string mode = checkpoints != nullptr ? checkpoints : "";
    if (mode == "none") {
      options.checkpoint_every = 0;
      options.sign_within = absl::ZeroDuration();
    } else if (mode == "witnessed") {
      Witnessed(options);
    }
    absl::StatusOr<std::unique_ptr<service::Server>> s = service::Server::Start(options);
    if (!s.ok()) {
      std::fprintf(stderr, "cannot start the server: %s\n", s.status().ToString().c_str());
      std::abort();
    }
    server_ = *std::move(s);
    const char* token = getenv("SERVICE_BENCH_TOKEN");
    if (token != nullptr && std::string(token) == "chief") IssueToken();
  }
  ~BenchServer() {
    server_.reset();
    if (witness_ != nullptr) {
      // What was witnessed: so a run shows the witness was reached.
      absl::StatusOr<std::unique_ptr<ledger::Store>> ledger_store =
          ledger::OpenStore(dir_.File("data"));
      absl::StatusOr<std::unique_ptr<ledger::CosignatureStore>> store =
          ledger_store.ok() ? ledger::CosignatureStore::OpenForReading(**ledger_store, "")
                            : ledger_store.status();
      absl::StatusOr<std::map<uint64_t, int>> counts =
          store.ok() ? (*store)->Counts() : store.status();
      std::fprintf(stderr, "witnessed: %zu checkpoint(s) cosigned, the last at size %llu\n",
                   counts.ok() ? counts->size() : 0,
                   counts.ok() && !counts->empty()
                       ? static_cast<unsigned long long>(counts->rbegin()->first)
                       : 0ULL);
    }
    witness_.reset();
  }
  std::unique_ptr<v1::Arbiter::Stub> Stub() const {
    return v1::Arbiter::NewStub(
        grpc::CreateChannel(server_->address(), grpc::InsecureChannelCredentials()));
  }
  const std::string& address() const { return server_->address(); }
  // With SERVICE_BENCH_TOKEN=chief, the CHIEF_ARBITER token every call of
  // RatioClients carries (the server then admits none without one); empty
  // when the server runs open.
  const std::string& token() const { return token_; }
  // The disk SERVICE_BENCH_DIR names (else the default temporary directory).
  static std::string DiskDir() {
    return getenv("SERVICE_BENCH_DIR") != nullptr ? getenv("SERVICE_BENCH_DIR") : "";
  }
  // A database beside the server's, on the same disk, for other writers.
  std::string scratch_db() const { return dir_.File("scratch.db"); }

 private:
  // A CHIEF_ARBITER token, made as `arbiter token create` makes one beside
  // the running server: from then on it admits no call without a token.
  void IssueToken() {
    absl::StatusOr<std::unique_ptr<service::TokenStore>> store =
        service::TokenStore::Open(dir_.File("data"));
    absl::StatusOr<std::string> secret =
        store.ok() ? (*store)->Create(service::Role::kChiefArbiter, "bench", {}, std::nullopt)
                   : store.status();
    if (!secret.ok()) {
      std::fprintf(stderr, "cannot issue the token: %s\n", secret.status().ToString().c_str());
      std::abort();
    }
    token_ = *std::move(secret);
  }
  // Starts a witness of this server's log (its key made first, under a
  // fixed origin) and names it among `options.witnesses`.
  void Witnessed(service::ServerOptions& options) {
    constexpr char kOrigin[] = "bench.example/venue";
    std::filesystem::create_directories(options.data_dir);
    absl::StatusOr<ledger::Signer> key = ledger::LoadSigningKey(options.data_dir, kOrigin);
    absl::StatusOr<std::string> raw =
        key.ok() ? ledger::RawEd25519PublicKey(key->public_key_der()) : key.status();
    absl::StatusOr<std::string> vkey =
        raw.ok() ? ledger::FormatVerifierKey(kOrigin, *raw) : raw.status();
    if (!vkey.ok()) {
      std::fprintf(stderr, "cannot make the bench log's key: %s\n",
                   vkey.status().ToString().c_str());
      std::abort();
    }
    options.log_origin = kOrigin;
    service::ServerOptions w;
    w.data_dir = dir_.File("witness");
    w.listen = "127.0.0.1:0";
    w.http_listen = "127.0.0.1:0";
    w.live_timers = false;
    w.witness = {dir_.File("witness.key"), "bench.example/witness", {{kOrigin, *vkey}}};
    absl::StatusOr<std::unique_ptr<service::Server>> started = service::Server::Start(w);
    if (!started.ok()) {
      std::fprintf(stderr, "cannot start the witness: %s\n", started.status().ToString().c_str());
      std::abort();
    }
    witness_ = *std::move(started);
    options.witnesses = {
        absl::StrCat("http://", witness_->console_address(), "=", witness_->witness_vkey())};
  }

  testing::TempDir dir_;
  std::unique_ptr<service::Server> witness_;  // with SERVICE_BENCH_CHECKPOINTS=witnessed
  std::unique_ptr<service::Server> server_;
  std::string token_;
};

// One game being recorded by a client.
struct Recording {
  std::string id;
  const std::vector<v1::Event>* events = nullptr;
  size_t next = 0;
};

void StartGame(Recording& r, const std::string& id, size_t pick) {
  r.id = id;
  r.events = &Games()[pick % Games().size()];
  r.next = 0;
}

// The request recording the game's next event.
v1::AppendEventsRequest NextRequest(const Recording& r) {
  v1::AppendEventsRequest req;
  req.set_game("games/" + r.id);
  v1::Event* e = req.add_events();
  *e = (*r.events)[r.next];
  if (e->has_game_created()) e->mutable_game_created()->set_game_id(r.id);
  return req;
}

// `token` (none when empty) on the call of `ctx`.
void Authorize(grpc::ClientContext& ctx, const std::string& token) {
  if (!token.empty()) ctx.AddMetadata("authorization", "Bearer " + token);
}

// Sends the game's next event (with `token`, when not empty); returns its
// latency, or a negative duration on an error (which the run reports).
absl::Duration SendNext(v1::Arbiter::Stub& stub, Recording& r, const std::string& token = "") {
  const v1::AppendEventsRequest req = NextRequest(r);
  v1::AppendEventsResponse resp;
  grpc::ClientContext ctx;
  Authorize(ctx, token);
  const absl::Time t0 = absl::Now();
  grpc::Status s = stub.AppendEvents(&ctx, req, &resp);
  const absl::Duration took = absl::Now() - t0;
  if (!s.ok()) {
    // The first refusal says why (errors are counted, not hidden).
    static std::once_flag once;
    std::call_once(once, [&] {
      std::fprintf(stderr, "AppendEvents refused (code %d): %s\n", static_cast<int>(s.error_code()),
                   s.error_message().c_str());
    });
  }
  ++r.next;
  return s.ok() ? took : -took;
}

void Report(benchmark::State& state, std::vector<absl::Duration>& latencies, absl::Duration wall,
            int errors) {
  std::sort(latencies.begin(), latencies.end());
  auto pct = [&](double p) {
    if (latencies.empty()) return 0.0;
    return absl::ToDoubleMicroseconds(latencies[std::min(
        latencies.size() - 1, static_cast<size_t>(p * static_cast<double>(latencies.size())))]);
  };
  state.SetIterationTime(absl::ToDoubleSeconds(wall));
  state.counters["events_per_s"] =
      static_cast<double>(latencies.size()) / absl::ToDoubleSeconds(wall);
  state.counters["p50_us"] = pct(0.50);
  state.counters["p99_us"] = pct(0.99);
  state.counters["max_us"] = latencies.empty() ? 0 : absl::ToDoubleMicroseconds(latencies.back());
  state.counters["events"] = static_cast<double>(latencies.size());
  state.counters["errors"] = errors;
  failed_calls += errors;
}

// What one client thread measured.
struct Measured {
  std::vector<absl::Duration> latencies;
  int errors = 0;

  // Sends the game's next event and records how it went.
  void Send(v1::Arbiter::Stub& stub, Recording& r) {
    const absl::Duration d = SendNext(stub, r);
    if (d < absl::ZeroDuration()) {
      ++errors;
    } else {
      latencies.push_back(d);
    }
  }
};

// One run: a fresh server, `clients` threads each calling
// drive(client, stub, start, end, measured) until `end`, then the report.
void RunClients(
    benchmark::State& state, int clients,
    const std::function<void(int, v1::Arbiter::Stub&, absl::Time, absl::Time, Measured&)>& drive) {
  BenchServer server;
  std::mutex mu;
  Measured all;
  const absl::Time start = absl::Now();
  const absl::Time end = start + absl::Seconds(Seconds());
  std::vector<std::thread> threads;
  for (int c = 0; c < clients; ++c) {
    threads.emplace_back([&, c] {
      auto stub = server.Stub();
      Measured mine;
      drive(c, *stub, start, end, mine);
      std::lock_guard<std::mutex> lock(mu);
      all.latencies.insert(all.latencies.end(), mine.latencies.begin(), mine.latencies.end());
      all.errors += mine.errors;
    });
  }
  for (std::thread& t : threads) t.join();
  Report(state, all.latencies, absl::Now() - start, all.errors);
}

// One run each at 1, 8 and 32 clients, timed by the benchmark itself.
void AtClientCounts(benchmark::internal::Benchmark* b) {
  b->Arg(1)->Arg(8)->Arg(32)->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);
}

void BM_FullSpeed(benchmark::State& state) {
  const int clients = static_cast<int>(state.range(0));
  for (auto _ : state) {
    RunClients(state, clients,
               [](int c, v1::Arbiter::Stub& stub, absl::Time, absl::Time end, Measured& mine) {
                 Recording r;
                 int n = 0;
                 StartGame(r, absl::StrCat("full-", c, "-", n), static_cast<size_t>(c));
                 while (absl::Now() < end) {
                   if (r.next == r.events->size()) {
                     ++n;
                     StartGame(r, absl::StrCat("full-", c, "-", n), static_cast<size_t>(c + n));
                   }
                   mine.Send(stub, r);
                 }
               });
  }
}
BENCHMARK(BM_FullSpeed)->Apply(AtClientCounts);

void BM_TournamentPace(benchmark::State& state) {
  const int games = static_cast<int>(state.range(0));
  constexpr int kClients = 8;  // each drives games/8 boards, like a desk per room
  const absl::Duration interval = absl::Seconds(1);
  for (auto _ : state) {
    RunClients(
        state, kClients,
        [&](int c, v1::Arbiter::Stub& stub, absl::Time start, absl::Time end, Measured& mine) {
          std::vector<Recording> boards;
          std::vector<absl::Time> due;
          for (int g = c; g < games; g += kClients) {
            boards.emplace_back();
            StartGame(boards.back(), absl::StrCat("pace-", g), static_cast<size_t>(g));
            // Spread the boards' first events over the first interval.
            due.push_back(start + interval * g / games);
          }
          while (!boards.empty()) {
            const size_t i =
                static_cast<size_t>(std::min_element(due.begin(), due.end()) - due.begin());
            if (due[i] >= end) break;
            absl::SleepFor(due[i] - absl::Now());
            Recording& r = boards[i];
            if (r.next == r.events->size()) StartGame(r, absl::StrCat(r.id, "-next"), i + 1);
            mine.Send(stub, r);
            due[i] += interval;
          }
        });
  }
}
BENCHMARK(BM_TournamentPace)
    ->Arg(100)
    ->Arg(500)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kSecond);

int Rounds() { return bench::BenchRounds(3); }

// CPU seconds of the whole process (all threads), or of the calling thread.
double ProcessCpuSeconds() {
  rusage u;
  getrusage(RUSAGE_SELF, &u);
  auto secs = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return secs(u.ru_utime) + secs(u.ru_stime);
}
// The process's context switches so far, voluntary and not.
int64_t ProcessSwitches() {
  rusage u;
  getrusage(RUSAGE_SELF, &u);
  return u.ru_nvcsw + u.ru_nivcsw;
}
double ThreadCpuSeconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

// What one round of calls measured.
struct Rated {
  double per_s = 0;              // calls answered per second
  double cpu_us_per = 0;         // the server's CPU per call answered, microseconds
  double client_cpu_us_per = 0;  // the calling threads' own CPU per call
  // The process's context switches per call, server's and client's: on
  // this VM each costs a paravirtual wake-up.
  double switches_per = 0;
  // A call's time as its client saw it (the request built, sent, answered),
  // median and 99th percentile, microseconds.
  double p50_us = 0;
  double p99_us = 0;
};

// C threads, each calling `call` as fast as it answers for `seconds`
// (errors are counted in `errors`). The server's CPU is the process's less
// the calling threads' own: their client side (a blocking gRPC call runs
// its client work on the calling thread).
template <typename Call>
Rated Rate(int clients, double seconds, std::atomic<int>& errors, Call call) {
  std::atomic<int64_t> done{0};
  std::mutex mu;
  double client_cpu = 0;
  const double cpu0 = ProcessCpuSeconds();
  const int64_t switches0 = ProcessSwitches();
  const absl::Time start = absl::Now();
  const absl::Time end = start + absl::Seconds(seconds);
  std::vector<double> took_us;  // of every call answered
  std::vector<std::thread> threads;
  for (int c = 0; c < clients; ++c) {
    threads.emplace_back([&, c] {
      const double mine0 = ThreadCpuSeconds();
      std::vector<double> mine;
      for (absl::Time now = absl::Now(); now < end;) {
        const bool ok = call(c);
        const absl::Time then = absl::Now();
        if (ok) {
          mine.push_back(absl::ToDoubleMicroseconds(then - now));
        } else {
          ++errors;
        }
        now = then;
      }
      done += static_cast<int64_t>(mine.size());
      const double used = ThreadCpuSeconds() - mine0;
      std::lock_guard<std::mutex> lock(mu);
      client_cpu += used;
      took_us.insert(took_us.end(), mine.begin(), mine.end());
    });
  }
  for (std::thread& t : threads) t.join();
  Rated r;
  if (!took_us.empty()) {
    std::nth_element(took_us.begin(), took_us.begin() + took_us.size() / 2, took_us.end());
    r.p50_us = took_us[took_us.size() / 2];
    const size_t p99 = took_us.size() * 99 / 100;
    std::nth_element(took_us.begin(), took_us.begin() + p99, took_us.end());
    r.p99_us = took_us[p99];
  }
  const double calls = static_cast<double>(done.load());
  r.per_s = calls / absl::ToDoubleSeconds(absl::Now() - start);
  if (calls > 0) {
    r.cpu_us_per = 1e6 * (ProcessCpuSeconds() - cpu0 - client_cpu) / calls;
    r.client_cpu_us_per = 1e6 * client_cpu / calls;
    r.switches_per = static_cast<double>(ProcessSwitches() - switches0) / calls;
  }
  return r;
}

// One thread committing one small row a transaction, durably (WAL,
// synchronous=FULL, as the ledger), for `seconds`: commits per second.
double DurableCommits(const std::string& db_path, double seconds) {
  auto die = [](const absl::Status& s) {
    std::fprintf(stderr, "durable commit loop: %s\n", s.ToString().c_str());
    std::abort();
  };
  absl::StatusOr<ledger::Db> db =
      ledger::Db::Open(db_path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  if (!db.ok()) die(db.status());
  if (absl::Status s = db->Exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; "
                                "CREATE TABLE IF NOT EXISTS t(x INTEGER PRIMARY KEY, b BLOB)");
      !s.ok()) {
    die(s);
  }
  // The log's file reserved as the ledger's writer reserves its own
  // (WalCheckpointer::Reserve): each commit's fdatasync is then one write
  // to the disk, the least a durable commit costs here.
  if (absl::Status s = ledger::WalCheckpointer(1000).Reserve(db->get()); !s.ok()) die(s);
  absl::StatusOr<ledger::Stmt> ins = ledger::Stmt::Prepare(*db, "INSERT INTO t(b) VALUES(?)");
  if (!ins.ok()) die(ins.status());
  const std::string row(200, 'x');  // about one event's bytes
  int64_t commits = 0;
  const absl::Time start = absl::Now();
  const absl::Time end = start + absl::Seconds(seconds);
  while (absl::Now() < end) {
    absl::StatusOr<ledger::Transaction> tx = ledger::Transaction::Write(*db);
    if (!tx.ok()) die(tx.status());
    ins->BindBlob(1, row);
    if (absl::Status s = ins->Run(); !s.ok()) die(s);
    if (absl::Status s = tx->Commit(); !s.ok()) die(s);
    ++commits;
  }
  return static_cast<double>(commits) / absl::ToDoubleSeconds(absl::Now() - start);
}

// Where the second server keeps its ledger: in memory (tmpfs).
std::string MemoryDir() {
  const char* d = getenv("SERVICE_BENCH_MEMDIR");
  return d != nullptr ? d : "/dev/shm";
}

// One server and, per client, one channel with both stubs on it (kept across
// rounds, for both kinds of call) and the game it is recording.
class RatioClients {
 public:
  RatioClients(const std::string& parent, int clients) : server_(parent) {
    for (int c = 0; c < clients; ++c) {
      auto channel = grpc::CreateChannel(server_.address(), grpc::InsecureChannelCredentials());
      arbiter_.push_back(v1::Arbiter::NewStub(channel));
      health_.push_back(grpc::health::v1::Health::NewStub(channel));
      games_.emplace_back();
      started_.push_back(0);
      streams_.emplace_back();
      StartGame(games_.back(), absl::StrCat("ratio-", c, "-0"), static_cast<size_t>(c));
    }
  }
  ~RatioClients() {
    for (Stream& s : streams_) {
      if (s.stream == nullptr) continue;
      s.stream->WritesDone();
      s.stream->Finish();
    }
  }
  const BenchServer& server() const { return server_; }

  bool Bare(int c) {
    grpc::ClientContext ctx;
    Authorize(ctx, server_.token());
    grpc::health::v1::HealthCheckRequest req;
    grpc::health::v1::HealthCheckResponse resp;
    return health_[static_cast<size_t>(c)]->Check(&ctx, req, &resp).ok();
  }
  bool Append(int c) {
    return SendNext(*arbiter_[static_cast<size_t>(c)], Next(c), server_.token()) >=
           absl::ZeroDuration();
  }
  // The same append as the next request on the client's RecordEvents
  // stream (opened on first use; a failure ends it, and it is opened again).
  bool AppendOnStream(int c) {
    Recording& r = Next(c);
    Stream& s = streams_[static_cast<size_t>(c)];
    if (s.stream == nullptr) {
      s.context = std::make_unique<grpc::ClientContext>();
      Authorize(*s.context, server_.token());
      s.stream = arbiter_[static_cast<size_t>(c)]->RecordEvents(s.context.get());
    }
    v1::AppendEventsResponse resp;
    const bool ok = s.stream->Write(NextRequest(r)) && s.stream->Read(&resp);
    ++r.next;
    if (!ok) {
      s.stream->WritesDone();
      const grpc::Status status = s.stream->Finish();
      static std::once_flag once;
      std::call_once(once, [&] {
        std::fprintf(stderr, "RecordEvents ended (code %d): %s\n",
                     static_cast<int>(status.error_code()), status.error_message().c_str());
      });
      s.stream.reset();
    }
    return ok;
  }

 private:
  struct Stream {
    std::unique_ptr<grpc::ClientContext> context;
    std::unique_ptr<grpc::ClientReaderWriter<v1::AppendEventsRequest, v1::AppendEventsResponse>>
        stream;
  };
  // Client c's game, a new one once the last is recorded.
  Recording& Next(int c) {
    Recording& r = games_[static_cast<size_t>(c)];
    if (r.next == r.events->size()) {
      int& n = started_[static_cast<size_t>(c)];
      ++n;
      StartGame(r, absl::StrCat("ratio-", c, "-", n), static_cast<size_t>(c + n));
    }
    return r;
  }

  BenchServer server_;
  std::vector<std::unique_ptr<v1::Arbiter::Stub>> arbiter_;
  std::vector<std::unique_ptr<grpc::health::v1::Health::Stub>> health_;
  std::vector<Recording> games_;
  std::vector<int> started_;
  std::vector<Stream> streams_;
};

void BM_AppendVsBareCall(benchmark::State& state) {
  const int clients = static_cast<int>(state.range(0));
  for (auto _ : state) {
    RatioClients disk(BenchServer::DiskDir(), clients);
    std::unique_ptr<RatioClients> memory;
    if (std::error_code ec; std::filesystem::is_directory(MemoryDir(), ec)) {
      memory = std::make_unique<RatioClients>(MemoryDir(), clients);
    } else {
      std::fprintf(stderr, "no %s: the in-memory ratio is not measured\n", MemoryDir().c_str());
    }
    std::atomic<int> errors{0};
    std::vector<double> appends, bares, ratios, commits, bounds, group_bounds, append_cpu, bare_cpu,
        mem_appends, mem_bares, mem_ratios, mem_append_cpu;
    const double seconds = Seconds() / 2;
    for (int round = 0; round < Rounds(); ++round) {
      const Rated bare = Rate(clients, seconds, errors, [&](int c) { return disk.Bare(c); });
      const Rated append = Rate(clients, seconds, errors, [&](int c) { return disk.Append(c); });
      bares.push_back(bare.per_s);
      appends.push_back(append.per_s);
      ratios.push_back(append.per_s / bare.per_s);
      bare_cpu.push_back(bare.cpu_us_per);
      append_cpu.push_back(append.cpu_us_per);
      commits.push_back(DurableCommits(disk.server().scratch_db(), seconds / 2));
      bounds.push_back(commits.back() / bare.per_s);
      group_bounds.push_back(std::min(1.0, clients * commits.back() / bare.per_s));
      if (memory != nullptr) {
        const Rated mbare = Rate(clients, seconds, errors, [&](int c) { return memory->Bare(c); });
        const Rated mappend =
            Rate(clients, seconds, errors, [&](int c) { return memory->Append(c); });
        mem_bares.push_back(mbare.per_s);
        mem_appends.push_back(mappend.per_s);
        mem_ratios.push_back(mappend.per_s / mbare.per_s);
        mem_append_cpu.push_back(mappend.cpu_us_per);
      }
    }
    state.SetIterationTime(Seconds() * Rounds() * (memory != nullptr ? 2.25 : 1.25));
    state.counters["appends_per_s"] = Median(appends);
    state.counters["bare_calls_per_s"] = Median(bares);
    state.counters["ratio_pct"] = 100 * Median(ratios);
    state.counters["durable_commits_per_s"] = Median(commits);
    state.counters["fsync_bound_pct"] = 100 * Median(bounds);
    state.counters["group_commit_bound_pct"] = 100 * Median(group_bounds);
    state.counters["cpu_us_per_append"] = Median(append_cpu);
    state.counters["cpu_us_per_bare_call"] = Median(bare_cpu);
    if (memory != nullptr) {
      state.counters["mem_appends_per_s"] = Median(mem_appends);
      state.counters["mem_bare_calls_per_s"] = Median(mem_bares);
      state.counters["mem_ratio_pct"] = 100 * Median(mem_ratios);
      state.counters["mem_cpu_us_per_append"] = Median(mem_append_cpu);
    }
    state.counters["errors"] = errors.load();
    failed_calls += errors.load();
  }
}
BENCHMARK(BM_AppendVsBareCall)->Apply(AtClientCounts);

// The RecordEvents stream appends of AppendVsPostgres alone, C clients for
// BENCH_SECONDS, with nothing else in the process's time: the run to put
// under a profiler (`perf record -g`), and the server's CPU per append
// (`cpu_us_per_stream_append`) with nothing else around it.
void BM_StreamAppends(benchmark::State& state) {
  const int clients = static_cast<int>(state.range(0));
  for (auto _ : state) {
    RatioClients disk(BenchServer::DiskDir(), clients);
    std::atomic<int> errors{0};
    const Rated streamed =
        Rate(clients, Seconds(), errors, [&](int c) { return disk.AppendOnStream(c); });
    state.SetIterationTime(Seconds());
    state.counters["stream_appends_per_s"] = streamed.per_s;
    state.counters["cpu_us_per_stream_append"] = streamed.cpu_us_per;
    state.counters["client_cpu_us_per_stream_append"] = streamed.client_cpu_us_per;
    state.counters["stream_append_p50_us"] = streamed.p50_us;
    state.counters["stream_append_p99_us"] = streamed.p99_us;
    state.counters["switches_per_stream_append"] = streamed.switches_per;
    state.counters["errors"] = errors.load();
    failed_calls += errors.load();
  }
}
BENCHMARK(BM_StreamAppends)->Apply(AtClientCounts);

// The throwaway PostgreSQL cluster of this run (started on first use,
// stopped at exit), or nullptr, said once, when it cannot be had.
testing::PgCluster* BenchPg() {
  static testing::PgCluster* const cluster = []() -> testing::PgCluster* {
    if (!testing::PgCluster::Installed()) {
      std::fprintf(stderr,
                   "PostgreSQL 15's binaries are not installed (ARBITER_PG_BIN, else "
                   "/usr/lib/postgresql/15/bin): its INSERTs are not measured\n");
      return nullptr;
    }
    absl::StatusOr<std::unique_ptr<testing::PgCluster>> c = testing::PgCluster::Start();
    if (!c.ok()) {
      std::fprintf(stderr, "cannot start a PostgreSQL cluster, its INSERTs are not measured: %s\n",
                   std::string(c.status().message()).c_str());
      return nullptr;
    }
    static std::unique_ptr<testing::PgCluster> owned = *std::move(c);  // stopped at exit
    return owned.get();
  }();
  return cluster;
}

// C connections to a fresh database of the cluster, each inserting one row
// of 200 bytes (about one event's) a transaction: autocommit, so every
// INSERT waits for its own durable commit, or shares a group flush of the
// WAL with the other connections' (as PostgreSQL does).
class PgInserts {
 public:
  static absl::StatusOr<std::unique_ptr<PgInserts>> Open(testing::PgCluster& cluster, int clients) {
    absl::StatusOr<std::string> uri = cluster.NewDatabase();
    if (!uri.ok()) return uri.status();
    std::unique_ptr<PgInserts> p(new PgInserts);
    for (int c = 0; c < clients; ++c) {
      absl::StatusOr<ledger::PgConn> conn = ledger::PgConn::Connect(*uri);
      if (!conn.ok()) return conn.status();
      p->conns_.push_back(*std::move(conn));
    }
    if (absl::Status s =
            p->conns_[0].Run("CREATE TABLE t(id BIGSERIAL PRIMARY KEY, b BYTEA NOT NULL)");
        !s.ok()) {
      return s;
    }
    return p;
  }
  bool Insert(int c) {
    return conns_[static_cast<size_t>(c)]
        .Exec("INSERT INTO t(b) VALUES($1)", ledger::PgParams().Bytes(row_))
        .ok();
  }

 private:
  PgInserts() = default;
  std::vector<ledger::PgConn> conns_;
  const std::string row_ = std::string(200, 'x');
};

void BM_AppendVsPostgres(benchmark::State& state) {
  const int clients = static_cast<int>(state.range(0));
  for (auto _ : state) {
    std::unique_ptr<PgInserts> pg;
    if (testing::PgCluster* cluster = BenchPg(); cluster != nullptr) {
      absl::StatusOr<std::unique_ptr<PgInserts>> opened = PgInserts::Open(*cluster, clients);
      if (!opened.ok()) {
        std::fprintf(stderr, "PostgreSQL's INSERTs are not measured: %s\n",
                     std::string(opened.status().message()).c_str());
      } else {
        pg = *std::move(opened);
      }
    }
    RatioClients disk(BenchServer::DiskDir(), clients);
    std::atomic<int> errors{0};
    std::vector<double> appends, inserts, to_pg, bares, commits, bounds, to_bound, append_cpu,
        append_client_cpu, insert_client_cpu, bare_cpu, bare_client_cpu, bare_to_pg,
        append_switches, bare_switches, append_p50, bare_p50, insert_p50, stream_appends,
        stream_p50, stream_p99, stream_cpu, stream_to_pg, stream_to_bound;
    const double seconds = Seconds() / 2;
    for (int round = 0; round < Rounds(); ++round) {
      if (pg != nullptr) {
        const Rated insert = Rate(clients, seconds, errors, [&](int c) { return pg->Insert(c); });
        inserts.push_back(insert.per_s);
        insert_client_cpu.push_back(insert.client_cpu_us_per);
        insert_p50.push_back(insert.p50_us);
      }
      const Rated append = Rate(clients, seconds, errors, [&](int c) { return disk.Append(c); });
      appends.push_back(append.per_s);
      append_cpu.push_back(append.cpu_us_per);
      append_client_cpu.push_back(append.client_cpu_us_per);
      append_switches.push_back(append.switches_per);
      append_p50.push_back(append.p50_us);
      if (pg != nullptr) to_pg.push_back(append.per_s / inserts.back());
      const Rated streamed =
          Rate(clients, seconds, errors, [&](int c) { return disk.AppendOnStream(c); });
      stream_appends.push_back(streamed.per_s);
      stream_p50.push_back(streamed.p50_us);
      stream_p99.push_back(streamed.p99_us);
      stream_cpu.push_back(streamed.cpu_us_per);
      if (pg != nullptr) stream_to_pg.push_back(streamed.per_s / inserts.back());
      const Rated bare = Rate(clients, seconds, errors, [&](int c) { return disk.Bare(c); });
      bares.push_back(bare.per_s);
      bare_cpu.push_back(bare.cpu_us_per);
      bare_client_cpu.push_back(bare.client_cpu_us_per);
      bare_switches.push_back(bare.switches_per);
      bare_p50.push_back(bare.p50_us);
      if (pg != nullptr) bare_to_pg.push_back(bare.per_s / inserts.back());
      if (clients == 1) {
        commits.push_back(DurableCommits(disk.server().scratch_db(), seconds / 2));
        bounds.push_back(1 / (1 / bares.back() + 1 / commits.back()));
        to_bound.push_back(append.per_s / bounds.back());
        stream_to_bound.push_back(streamed.per_s / bounds.back());
      }
    }
    state.SetIterationTime(Seconds() * Rounds());
    state.counters["appends_per_s"] = Median(appends);
    state.counters["cpu_us_per_append"] = Median(append_cpu);
    state.counters["client_cpu_us_per_append"] = Median(append_client_cpu);
    state.counters["bare_calls_per_s"] = Median(bares);
    state.counters["cpu_us_per_bare_call"] = Median(bare_cpu);
    state.counters["client_cpu_us_per_bare_call"] = Median(bare_client_cpu);
    state.counters["switches_per_append"] = Median(append_switches);
    state.counters["switches_per_bare_call"] = Median(bare_switches);
    state.counters["append_p50_us"] = Median(append_p50);
    state.counters["bare_call_p50_us"] = Median(bare_p50);
    state.counters["stream_appends_per_s"] = Median(stream_appends);
    state.counters["stream_append_p50_us"] = Median(stream_p50);
    state.counters["stream_append_p99_us"] = Median(stream_p99);
    state.counters["cpu_us_per_stream_append"] = Median(stream_cpu);
    std::string line =
        absl::StrCat(clients, " client(s): ", static_cast<int>(Median(appends)), " appends/s");
    if (pg != nullptr) {
      state.counters["pg_inserts_per_s"] = Median(inserts);
      state.counters["ratio_to_pg_pct"] = 100 * Median(to_pg);
      state.counters["client_cpu_us_per_insert"] = Median(insert_client_cpu);
      state.counters["insert_p50_us"] = Median(insert_p50);
      state.counters["bare_to_pg_pct"] = 100 * Median(bare_to_pg);
      state.counters["stream_ratio_to_pg_pct"] = 100 * Median(stream_to_pg);
      absl::StrAppend(&line, ", PostgreSQL ", static_cast<int>(Median(inserts)),
                      " INSERTs/s: ", static_cast<int>(100 * Median(to_pg)),
                      " % of it; on RecordEvents streams ",
                      static_cast<int>(Median(stream_appends)), " appends/s, ",
                      static_cast<int>(100 * Median(stream_to_pg)), " %");
    }
    if (clients == 1) {
      state.counters["durable_commits_per_s"] = Median(commits);
      state.counters["serial_bound_per_s"] = Median(bounds);
      state.counters["ratio_to_bound_pct"] = 100 * Median(to_bound);
      state.counters["stream_ratio_to_bound_pct"] = 100 * Median(stream_to_bound);
      absl::StrAppend(&line, "; the serial disk bound (a bare call + a durable commit) ",
                      static_cast<int>(Median(bounds)),
                      "/s: ", static_cast<int>(100 * Median(to_bound)),
                      " % of it (target 70), on a stream ",
                      static_cast<int>(100 * Median(stream_to_bound)), " %");
      if (pg != nullptr) {
        const double gap = 1e6 / Median(appends) - 1e6 / Median(inserts);
        state.counters["gap_to_pg_us"] = gap;
        absl::StrAppend(&line, "; an append takes ", static_cast<int>(gap),
                        " us more than an INSERT");
      }
    } else if (pg != nullptr) {
      absl::StrAppend(&line, " (target 100); bare calls ", static_cast<int>(Median(bares)),
                      "/s: ", static_cast<int>(100 * Median(bare_to_pg)), " % of it");
    }
    state.counters["errors"] = errors.load();
    failed_calls += errors.load();
    std::fprintf(stderr, "%s\n", line.c_str());
  }
}
BENCHMARK(BM_AppendVsPostgres)->Apply(AtClientCounts);

}  // namespace
}  // namespace arbiter

int main(int argc, char** argv) {
  return arbiter::bench::RunCountingFailures(argc, argv, arbiter::failed_calls, "call(s)");
}
