#include "adjudicator/service/console/tlog_tiles.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "adjudicator/service/console/http_status.h"
#include "ledger/stream.h"

namespace arbiter::service::console {
namespace {

constexpr char kImmutable[] = "public, max-age=31536000, immutable";
constexpr char kPartial[] = "public, max-age=10";
constexpr char kCheckpoint[] = "public, max-age=2";

void SendText(httplib::Response& res, int status, const std::string& text) {
  res.status = status;
  res.set_header("Cache-Control", "no-store");
  res.set_content(text + "\n", "text/plain; charset=utf-8");
}

}  // namespace

TlogTiles::TlogTiles(ledger::Ledger* ledger) : ledger_(ledger) {}

absl::StatusOr<TlogTiles::Published> TlogTiles::Latest() {
  absl::StatusOr<v1::Checkpoint> newest = ledger_->checkpoint_index().Latest();
  if (absl::IsNotFound(newest.status()))
    return absl::NotFoundError("the log has no checkpoint yet");
  if (!newest.ok()) return newest.status();
  absl::MutexLock lock(&mu_);
  if (newest->tree_size() != cached_.tree_size || cached_.note.empty()) {
    absl::StatusOr<std::string> note = ledger_->identity().CheckpointNote(*newest);
    if (!note.ok()) return note.status();
    cached_ = Published{newest->tree_size(), *std::move(note)};
  }
  return cached_;
}

absl::StatusOr<std::string> TlogTiles::Tile(const ledger::TileAddress& tile) {
  const std::optional<uint64_t> needed = tile.EventsNeeded();
  if (!needed) return absl::NotFoundError("no log holds this tile");
  absl::StatusOr<Published> latest = Latest();
  if (!latest.ok()) return latest.status();
  if (latest->tree_size < *needed) {
    return absl::NotFoundError(absl::StrCat("the latest checkpoint covers ", latest->tree_size,
                                            " events; this tile needs ", *needed));
  }
  const uint64_t first = tile.index * ledger::kTileWidth;
  std::string body;
  if (!tile.entries) {
    absl::StatusOr<std::vector<ledger::Hash>> hashes =
        ledger_->proofs().PerfectSubtrees(ledger::kTileHeight * tile.level, first, tile.width);
    if (!hashes.ok()) return hashes.status();
    body.reserve(hashes->size() * 32);
    for (const ledger::Hash& h : *hashes) absl::StrAppend(&body, AsBytes(h));
    return body;
  }
  absl::StatusOr<std::vector<v1::LedgerEntry>> entries = ledger_->log().ReadLog(first, tile.width);
  if (!entries.ok()) return entries.status();
  if (entries->size() != static_cast<size_t>(tile.width)) {
    return absl::InternalError("the log returned fewer entries than its checkpoint covers");
  }
  // Each entry is the data its leaf hashes (ledger/stream.h): a tournament
  // event's bytes come with their domain-separating prefix.
  for (const v1::LedgerEntry& e : *entries) {
    const std::string bytes = ledger::LeafData(e.game_id(), e.event());
    if (bytes.size() > 0xFFFF) {
      return absl::InternalError(absl::StrCat("the event at position ", e.position(), " is ",
                                              bytes.size(), " bytes: more than a bundle holds"));
    }
    body.push_back(static_cast<char>(bytes.size() >> 8));
    body.push_back(static_cast<char>(bytes.size() & 0xFF));
    body.append(bytes);
  }
  return body;
}

void TlogTiles::Route(httplib::Server& http) {
  http.Get("/checkpoint", [this](const httplib::Request&, httplib::Response& res) {
    absl::StatusOr<Published> latest = Latest();
    if (absl::IsNotFound(latest.status())) return SendText(res, 404, "no checkpoint yet");
    if (!latest.ok()) return SendError(res, latest.status());
    res.set_header("Cache-Control", kCheckpoint);
    res.set_content(latest->note, "text/plain; charset=utf-8");
  });
  http.Get(R"(/tile/(.+))", [this](const httplib::Request& req, httplib::Response& res) {
    absl::StatusOr<ledger::TileAddress> tile =
        ledger::ParseTilePath(absl::StrCat("tile/", std::string(req.matches[1])));
    if (!tile.ok()) return SendText(res, 400, std::string(tile.status().message()));
    absl::StatusOr<std::string> body = Tile(*tile);
    if (absl::IsNotFound(body.status())) {
      return SendText(res, 404, std::string(body.status().message()));
    }
    if (!body.ok()) return SendError(res, body.status());
    res.set_header("Cache-Control", tile->full() ? kImmutable : kPartial);
    res.set_content(*std::move(body), "application/octet-stream");
  });
}

}  // namespace arbiter::service::console
