// The encodings a tournament file may declare beyond those expat knows
// itself (UTF-8, UTF-16, ISO-8859-1, US-ASCII), through the C library's
// iconv: a single-byte one (windows-1252, which Windows editors write for
// Western European names, ISO-8859-15, KOI8-R...) as a table expat reads
// directly; a multi-byte one (GB18030, GBK, Big5, Shift_JIS, EUC-KR) by
// converting the whole file to UTF-8 first. Pure: nothing is read.
#ifndef ARBITER_ADJUDICATOR_TOURNAMENT_XML_ENCODING_H_
#define ARBITER_ADJUDICATOR_TOURNAMENT_XML_ENCODING_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "expat.h"

namespace arbiter::tournament {

// What SingleByteEncoding found when it refused an encoding.
struct EncodingRefusal {
  std::string why;        // "the encoding X ...", to say instead of expat's words
  std::string multibyte;  // the declared name, when iconv knows it as multi-byte
};

// An expat XML_UnknownEncodingHandler; `data` is an EncodingRefusal*.
// Accepts a single-byte encoding whose ASCII range is ASCII (expat's own
// condition); refuses a multi-byte one (noting its name, for ToUtf8) and a
// name iconv does not know.
int XMLCALL SingleByteEncoding(void* data, const XML_Char* name, XML_Encoding* info);

// `text` converted from `encoding` to UTF-8. INVALID_ARGUMENT naming the
// byte offset of the first sequence that is not `encoding`.
absl::StatusOr<std::string> ToUtf8(absl::string_view text, const std::string& encoding);

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_TOURNAMENT_XML_ENCODING_H_
