// Checks the include direction of the tree at ROOT (include_rules.h) and
// prints each offending include as file:line; exits 1 if there is one.
//
//   include_direction ROOT
#include <cstdio>

#include "tests/layering/include_rules.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: include_direction ROOT\n");
    return 2;
  }
  const auto violations = arbiter::layering::CheckIncludes(argv[1]);
  for (const auto& v : violations) std::printf("%s\n", arbiter::layering::Describe(v).c_str());
  if (violations.empty()) {
    std::printf("include direction: ok\n");
    return 0;
  }
  std::printf("include direction: %zu include(s) against the layering\n", violations.size());
  return 1;
}
