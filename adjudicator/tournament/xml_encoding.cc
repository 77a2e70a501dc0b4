#include "adjudicator/tournament/xml_encoding.h"

#include <iconv.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace arbiter::tournament {
namespace {

// The code point byte `b` alone stands for in the open conversion `cd`
// (to UTF-32LE): >= 0, -1 when `b` is not a character, -2 when it only
// starts one (a multi-byte encoding).
int32_t Decode(iconv_t cd, unsigned char b) {
  iconv(cd, nullptr, nullptr, nullptr, nullptr);  // back to the initial state
  char in[1] = {static_cast<char>(b)};
  unsigned char out[8];
  char* inp = in;
  char* outp = reinterpret_cast<char*>(out);
  size_t in_left = 1, out_left = sizeof out;
  if (iconv(cd, &inp, &in_left, &outp, &out_left) == static_cast<size_t>(-1)) {
    return errno == EINVAL ? -2 : -1;
  }
  if (sizeof out - out_left != 4) return -1;  // not exactly one code point
  return static_cast<int32_t>(out[0] | out[1] << 8 | out[2] << 16 |
                              static_cast<uint32_t>(out[3]) << 24);
}

}  // namespace

int XMLCALL SingleByteEncoding(void* data, const XML_Char* name, XML_Encoding* info) {
  EncodingRefusal* refusal = static_cast<EncodingRefusal*>(data);
  std::string* why = &refusal->why;
  iconv_t cd = iconv_open("UTF-32LE", name);
  if (cd == reinterpret_cast<iconv_t>(-1)) {
    *why = absl::StrCat("the encoding \"", name, "\" its prolog declares is not known");
    return XML_STATUS_ERROR;
  }
  for (int b = 0; b < 256; ++b) {
    const int32_t cp = Decode(cd, static_cast<unsigned char>(b));
    if (cp == -2) {
      iconv_close(cd);
      refusal->multibyte = name;
      return XML_STATUS_ERROR;
    }
    info->map[b] = cp;
  }
  iconv_close(cd);
  info->data = nullptr;
  info->convert = nullptr;  // every byte is a whole character
  info->release = nullptr;
  // expat itself refuses a table whose ASCII range is not ASCII (EBCDIC).
  *why = absl::StrCat("the encoding \"", name, "\" its prolog declares does not keep ASCII");
  return XML_STATUS_OK;
}

absl::StatusOr<std::string> ToUtf8(absl::string_view text, const std::string& encoding) {
  iconv_t cd = iconv_open("UTF-8", encoding.c_str());
  if (cd == reinterpret_cast<iconv_t>(-1)) {
    return absl::InvalidArgumentError(absl::StrCat("the encoding \"", encoding, "\" is not known"));
  }
  std::string out(text.size() * 2 + 16, '\0');
  char* in = const_cast<char*>(text.data());  // iconv's signature; it does not write
  size_t in_left = text.size();
  size_t done = 0;
  for (;;) {
    char* outp = out.data() + done;
    size_t out_left = out.size() - done;
    const size_t r = iconv(cd, &in, &in_left, &outp, &out_left);
    done = out.size() - out_left;
    if (r != static_cast<size_t>(-1)) break;
    if (errno == E2BIG) {
      out.resize(out.size() * 2);
      continue;
    }
    iconv_close(cd);
    return absl::InvalidArgumentError(absl::StrCat("byte ", text.size() - in_left + 1, " is not ",
                                                   encoding, " as the prolog declares"));
  }
  iconv_close(cd);
  out.resize(done);
  return out;
}

}  // namespace arbiter::tournament
