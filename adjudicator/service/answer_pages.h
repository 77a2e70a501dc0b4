// Answers too large for one message, in pages: the whole answer (a game's
// exported file, a tournament's standings or export) is made once and cut
// into pages of at most kMaxPageBytes (field_bounds.h), each a serialized
// response; the client joins them in order (how, each method's response
// says: bytes concatenated, repeated fields appended).
//
// A page token names the page and the answer it is cut from (the first 8
// bytes of the SHA-256 of all its pages, in hex): all pages of one answer
// come from one answer. The answers of the latest calls are kept (a few, up
// to kMaxKeptBytes in all), so each page does not make the answer again; a
// page whose answer is no longer kept is cut from the answer made anew, and
// when that differs (the game went on, a round was paired) the page is
// ABORTED: the client starts again from the first page.
#ifndef ARBITER_ADJUDICATOR_SERVICE_ANSWER_PAGES_H_
#define ARBITER_ADJUDICATOR_SERVICE_ANSWER_PAGES_H_

#include <algorithm>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "adjudicator/service/field_bounds.h"
#include "google/protobuf/message.h"

namespace arbiter::service {

// An answer cut into pages: each page's response, serialized
// (deterministically), without its next_page_token.
using AnswerPageList = std::vector<std::string>;

class AnswerPages {
 public:
  static constexpr size_t kMaxKept = 4;              // answers
  static constexpr size_t kMaxKeptBytes = 64 << 20;  // all of them together

  // The page that `page_token` names (empty: the first) of the answer that
  // `key` names ("games/G1 JSON", "tournaments/cup standings"), made by
  // `make` unless it is kept; `*next_page_token` is the next page's token,
  // empty on the last page. INVALID_ARGUMENT for a malformed token, ABORTED
  // as above, `make`'s errors.
  absl::StatusOr<std::string> Page(const std::string& key, const std::string& page_token,
                                   const std::function<absl::StatusOr<AnswerPageList>()>& make,
                                   std::string* next_page_token);

 private:
  struct Answer {
    std::string key;
    std::string id;  // hex of the first 8 bytes of the pages' SHA-256
    AnswerPageList pages;
    size_t bytes = 0;
  };

  std::shared_ptr<const Answer> Kept(const std::string& key, const std::string& id);
  void Keep(std::shared_ptr<const Answer> answer);

  absl::Mutex mu_;
  std::deque<std::shared_ptr<const Answer>> kept_ ABSL_GUARDED_BY(mu_);  // newest first
};

// A message serialized deterministically (map entries in key order), so an
// answer made twice from the same state has the same pages.
std::string SerializeDeterministic(const google::protobuf::Message& message);

// Cuts an answer of type Page into pages of at most `budget` bytes (with
// room for the token added later), from parts added in order. Every page
// starts as `blank` (the fields each page repeats), the first as `first`.
template <typename Page>
class PageCutter {
 public:
  // What a field's tag and length add to a part, at most.
  static constexpr size_t kPartOverhead = 16;

  PageCutter(Page first, Page blank, size_t budget = kMaxPageBytes - 1024)
      : blank_(std::move(blank)), page_(std::move(first)), budget_(budget) {
    bytes_ = page_.ByteSizeLong();
  }

  // A part of `bytes` that `add` puts in a page: on this page if it fits,
  // else on a new one (a part larger than a page gets a page of its own).
  void Add(size_t bytes, const std::function<void(Page*)>& add) {
    if (parts_ > 0 && bytes_ + bytes + kPartOverhead > budget_) NextPage();
    add(&page_);
    bytes_ += bytes + kPartOverhead;
    ++parts_;
  }

  // `data` appended to the bytes field `field` of as many pages as it takes,
  // filling each.
  void AddBytes(absl::string_view data, std::string* (*field)(Page*)) {
    while (!data.empty()) {
      if (bytes_ + kPartOverhead + 4096 > budget_) NextPage();
      const size_t n = std::min(data.size(), budget_ - bytes_ - kPartOverhead);
      field(&page_)->append(data.data(), n);
      bytes_ += n + kPartOverhead;
      ++parts_;
      data.remove_prefix(n);
    }
  }

  // The pages, serialized deterministically.
  AnswerPageList Done() {
    NextPage();
    return std::move(pages_);
  }

 private:
  void NextPage() {
    pages_.push_back(SerializeDeterministic(page_));
    page_ = blank_;
    bytes_ = page_.ByteSizeLong();
    parts_ = 0;
  }
  const Page blank_;
  Page page_;
  size_t budget_;
  size_t bytes_ = 0;
  int parts_ = 0;
  AnswerPageList pages_;
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_ANSWER_PAGES_H_
