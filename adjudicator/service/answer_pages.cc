#include "adjudicator/service/answer_pages.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "proto/canonical/sha256.h"

namespace arbiter::service {
namespace {

// A page token: the page's index and the answer's id ("x3.0123456789abcdef").
std::string PageToken(size_t index, const std::string& id) {
  return absl::StrCat("x", index, ".", id);
}

absl::Status ParsePageToken(const std::string& token, size_t* index, std::string* id) {
  const size_t dot = token.find('.');
  if (token.size() < 2 || token[0] != 'x' || dot == std::string::npos ||
      !absl::SimpleAtoi(absl::string_view(token).substr(1, dot - 1), index)) {
    return absl::InvalidArgumentError(
        absl::StrCat("page_token: ", QuotedPrefix(token), " is not a token of this answer"));
  }
  *id = token.substr(dot + 1);
  return absl::OkStatus();
}

// The pages' hashes hashed together.
std::string AnswerId(const AnswerPageList& pages) {
  std::string hashes;
  for (const std::string& page : pages) {
    const Sha256Digest digest = Sha256(page);
    const absl::string_view bytes = AsBytes(digest);
    hashes.append(bytes.data(), bytes.size());
  }
  return ToHex(AsBytes(Sha256(hashes)).substr(0, 8));
}

}  // namespace

std::string SerializeDeterministic(const google::protobuf::Message& message) {
  std::string out;
  {
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    message.SerializeToCodedStream(&coded);
  }
  return out;
}

absl::StatusOr<std::string> AnswerPages::Page(
    const std::string& key, const std::string& page_token,
    const std::function<absl::StatusOr<AnswerPageList>()>& make, std::string* next_page_token) {
  size_t index = 0;
  std::string want;
  std::shared_ptr<const Answer> answer;
  if (!page_token.empty()) {
    if (absl::Status s = ParsePageToken(page_token, &index, &want); !s.ok()) return s;
    answer = Kept(key, want);
  }
  if (answer == nullptr) {
    absl::StatusOr<AnswerPageList> pages = make();
    if (!pages.ok()) return pages.status();
    auto made = std::make_shared<Answer>();
    made->key = key;
    made->id = AnswerId(*pages);
    for (const std::string& p : *pages) made->bytes += p.size();
    made->pages = *std::move(pages);
    answer = made;
    Keep(answer);
  }
  if (!page_token.empty() && (answer->id != want || index >= answer->pages.size())) {
    return absl::AbortedError(absl::StrCat(
        key, ": the answer changed since its first page; ask again from the first page"));
  }
  next_page_token->clear();
  if (index + 1 < answer->pages.size()) *next_page_token = PageToken(index + 1, answer->id);
  return answer->pages[index];
}

std::shared_ptr<const AnswerPages::Answer> AnswerPages::Kept(const std::string& key,
                                                             const std::string& id) {
  absl::MutexLock lock(&mu_);
  for (const std::shared_ptr<const Answer>& a : kept_) {
    if (a->key == key && a->id == id) return a;
  }
  return nullptr;
}

void AnswerPages::Keep(std::shared_ptr<const Answer> answer) {
  // An answer of one page is never asked for again.
  if (answer->pages.size() <= 1 || answer->bytes > kMaxKeptBytes) return;
  absl::MutexLock lock(&mu_);
  kept_.push_front(std::move(answer));
  size_t bytes = 0;
  for (size_t i = 0; i < kept_.size(); ++i) {
    bytes += kept_[i]->bytes;
    if (i >= kMaxKept || bytes > kMaxKeptBytes) {
      kept_.resize(i);
      break;
    }
  }
}

}  // namespace arbiter::service
