// What a gRPC round trip costs by itself on this machine, as the append
// path would pay it: a unary call (what AppendEvents is) against one message
// each way on a bidirectional stream held open (what a clock or a board
// that sends many events could hold), 200 bytes each way (about one
// event), the server's handlers on gRPC's callback API as the arbiter's
// are, and C client threads in the same process, each waiting for its
// answer before it sends again (as the append benchmarks' clients do).
// The rounds alternate the two in one run; each prints the medians and the
// stream's rate over the unary one. What it is for: the share of an
// append's time that is gRPC's round trip, and what a stream would save of
// it (tests/bench/README.md, "The service: appends over gRPC").
//
//   BENCH_SECONDS=2 BENCH_ROUNDS=3 build/bin/transport_bench
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "benchmark/benchmark.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "grpcpp/server.h"
#include "grpcpp/server_builder.h"
#include "tests/bench/bench_main.h"
#include "tests/bench/bench_rounds.h"
#include "transport_echo.grpc.pb.h"

namespace arbiter {
namespace {

using bench::Median;

double Seconds() { return bench::BenchSeconds(2.0); }
int Rounds() { return bench::BenchRounds(3); }

class EchoService final : public bench::Echoer::CallbackService {
  grpc::ServerUnaryReactor* Unary(grpc::CallbackServerContext* context, const bench::Echo* in,
                                  bench::Echo* out) override {
    out->set_data(in->data());
    grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
    reactor->Finish(grpc::Status::OK);
    return reactor;
  }

  // Reads a message, writes it back, reads the next: one in flight.
  class StreamReactor final : public grpc::ServerBidiReactor<bench::Echo, bench::Echo> {
   public:
    StreamReactor() { StartRead(&in_); }
    void OnReadDone(bool ok) override {
      if (!ok) return Finish(grpc::Status::OK);  // the client is done
      out_.set_data(in_.data());
      StartWrite(&out_);
    }
    void OnWriteDone(bool ok) override {
      if (!ok) return Finish(grpc::Status(grpc::StatusCode::CANCELLED, "write failed"));
      StartRead(&in_);
    }
    void OnDone() override { delete this; }

   private:
    bench::Echo in_;
    bench::Echo out_;
  };
  grpc::ServerBidiReactor<bench::Echo, bench::Echo>* Stream(grpc::CallbackServerContext*) override {
    return new StreamReactor;
  }
};

// The server of the run, on a free loopback port.
class EchoServer {
 public:
  EchoServer() {
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port_);
    builder.RegisterService(&service_);
    server_ = builder.BuildAndStart();
    if (server_ == nullptr || port_ == 0) {
      std::fprintf(stderr, "cannot start the echo server\n");
      std::abort();
    }
  }
  ~EchoServer() { server_->Shutdown(absl::ToChronoTime(absl::Now() + absl::Seconds(5))); }
  std::string address() const { return absl::StrCat("127.0.0.1:", port_); }

 private:
  EchoService service_;
  int port_ = 0;
  std::unique_ptr<grpc::Server> server_;
};

enum class Transport { kUnary, kStream };

// Round trips per second of C clients for `seconds`, each on a channel of
// its own; `errors` counts the ones that failed.
double RoundTrips(const std::string& address, int clients, Transport how, double seconds,
                  std::atomic<int>& errors) {
  std::atomic<int64_t> done{0};
  const absl::Time start = absl::Now();
  const absl::Time end = start + absl::Seconds(seconds);
  std::vector<std::thread> threads;
  for (int c = 0; c < clients; ++c) {
    threads.emplace_back([&] {
      auto stub =
          bench::Echoer::NewStub(grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
      bench::Echo request;
      request.set_data(std::string(200, 'x'));
      bench::Echo answer;
      int64_t mine = 0;
      if (how == Transport::kUnary) {
        while (absl::Now() < end) {
          grpc::ClientContext context;
          if (stub->Unary(&context, request, &answer).ok()) {
            ++mine;
          } else {
            ++errors;
          }
        }
      } else {
        grpc::ClientContext context;
        auto stream = stub->Stream(&context);
        while (absl::Now() < end) {
          if (!stream->Write(request) || !stream->Read(&answer)) {
            ++errors;
            break;
          }
          ++mine;
        }
        stream->WritesDone();
        if (!stream->Finish().ok()) ++errors;
      }
      done += mine;
    });
  }
  for (std::thread& t : threads) t.join();
  return static_cast<double>(done.load()) / absl::ToDoubleSeconds(absl::Now() - start);
}

// Round trips that failed, over the whole run: any makes it exit 1, so its
// smoke run in ctest fails rather than report a rate of failures.
std::atomic<int> failed_round_trips{0};

void BM_UnaryVsStream(benchmark::State& state) {
  const int clients = static_cast<int>(state.range(0));
  EchoServer server;
  std::atomic<int> errors{0};
  for (auto _ : state) {
    std::vector<double> unary, stream, ratio;
    for (int round = 0; round < Rounds(); ++round) {
      unary.push_back(
          RoundTrips(server.address(), clients, Transport::kUnary, Seconds() / 2, errors));
      stream.push_back(
          RoundTrips(server.address(), clients, Transport::kStream, Seconds() / 2, errors));
      ratio.push_back(stream.back() / unary.back());
    }
    state.SetIterationTime(Seconds() * Rounds());
    state.counters["unary_per_s"] = Median(unary);
    state.counters["stream_per_s"] = Median(stream);
    state.counters["stream_to_unary_pct"] = 100 * Median(ratio);
    std::fprintf(stderr, "%d client(s): %d unary round trips/s, %d on streams: %d %%\n", clients,
                 static_cast<int>(Median(unary)), static_cast<int>(Median(stream)),
                 static_cast<int>(100 * Median(ratio)));
  }
  state.counters["errors"] = errors.load();
  failed_round_trips += errors.load();
}
BENCHMARK(BM_UnaryVsStream)->Arg(1)->Arg(8)->Arg(32)->Iterations(1)->UseManualTime();

}  // namespace
}  // namespace arbiter

int main(int argc, char** argv) {
  return arbiter::bench::RunCountingFailures(argc, argv, arbiter::failed_round_trips,
                                             "round trip(s)");
}
