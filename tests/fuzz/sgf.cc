// Fuzz target sgf: SGF text through `arbiter import-sgf`'s path (ParseSgf,
// SgfToEvents) and then the adjudicator, which must accept every event the
// importer produced.
#include <string>
#include <string_view>
#include <vector>

#include "adjudicator/engine/sgf.h"
#include "adjudicator/engine/sgf_events.h"
#include "tests/fuzz/checked_fold.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_targets.h"

namespace arbiter::fuzz {

void Sgf(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<SgfGame> game = ParseSgf(text);
  if (!game.ok()) return;
  absl::StatusOr<std::vector<v1::Event>> events =
      SgfToEvents(*game, "fuzz", absl::CivilDay(2026, 5, 1));
  if (!events.ok()) return;
  FUZZ_CHECK(!events->empty() && events->front().has_game_created(),
             "SgfToEvents must start with gameCreated");
  CheckedFold fold;
  FUZZ_CHECK(fold.Open(events->front().game_created()), "the importer's ruleset must exist");
  for (const v1::Event& e : *events) {
    FUZZ_CHECK(fold.Apply(e),
               "the adjudicator refused an imported event: " + fold.last_error().ToString() +
                   "\nevent: " + e.ShortDebugString());
  }
}

}  // namespace arbiter::fuzz
