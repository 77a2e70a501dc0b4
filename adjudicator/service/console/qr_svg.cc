#include "adjudicator/service/console/qr_svg.h"

#include <qrencode.h>

#include <cerrno>
#include <memory>

#include "absl/strings/str_cat.h"

namespace arbiter::service::console {

absl::StatusOr<std::string> QrSvg(absl::string_view text) {
  const std::string copy(text);
  errno = 0;
  std::unique_ptr<QRcode, void (*)(QRcode*)> code(
      QRcode_encodeString8bit(copy.c_str(), 0, QR_ECLEVEL_M), &QRcode_free);
  if (code == nullptr) {
    if (errno == ERANGE) return absl::InvalidArgumentError("too long for a QR code");
    return absl::InternalError("the QR encoder failed");
  }
  constexpr int kQuiet = 4;
  const int n = code->width;
  const int size = n + 2 * kQuiet;
  // One path of unit squares: each dark module "M x y h1 v1 h-1 z".
  std::string path;
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      if (code->data[y * n + x] & 1)
        absl::StrAppend(&path, "M", x + kQuiet, " ", y + kQuiet, "h1v1h-1z");
    }
  }
  return absl::StrCat(
      "<svg class=\"qr\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ", size, " ", size,
      "\" shape-rendering=\"crispEdges\" role=\"img\" aria-label=\"QR\">", "<rect width=\"", size,
      "\" height=\"", size, "\" fill=\"#fff\"/>", "<path fill=\"#000\" d=\"", path, "\"/></svg>");
}

}  // namespace arbiter::service::console
