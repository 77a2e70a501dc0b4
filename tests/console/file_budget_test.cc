// The server's open files as one budget (issue 46.5, file_budget.h): the
// caps drawn from an open-file limit add up within it, with a reserve for
// the server's own files; 16,000 broadcast viewers fit under 20,000; a
// --http-feeds beyond the budget is refused, naming the flag and the limit.
#include "adjudicator/service/console/file_budget.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace arbiter::service::console {
namespace {

using ::testing::HasSubstr;

TEST(FileBudgetTest, TheCapsDrawnFromALimitAddUpWithinIt) {
  for (const int limit : {64, 256, 1024, 4096, 20000, 65536, 1 << 20}) {
    for (const bool broadcast : {false, true}) {
      absl::StatusOr<FileBudget> b = PlanFiles(limit, broadcast, 0);
      ASSERT_TRUE(b.ok()) << limit << ": " << b.status();
      EXPECT_LE(b->total(), limit) << limit;
      // The server's own files keep an eighth of a small limit, 256 of a large one.
      EXPECT_GE(b->reserve, std::min(256, limit / 8)) << limit;
      EXPECT_GE(b->connections, 1) << limit;
      EXPECT_GE(b->feeds, 1) << limit;
      EXPECT_EQ(b->viewers >= 1, broadcast) << limit;
    }
  }
}

TEST(FileBudgetTest, SixteenThousandViewersFitUnderTwentyThousandFiles) {
  absl::StatusOr<FileBudget> b = PlanFiles(20000, /*broadcast=*/true, 0);
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_GE(b->viewers, 16000);
  EXPECT_EQ(b->reserve, 256);
  EXPECT_LE(b->total(), 20000);
  // Without the broadcast, the console's pages keep their cap of 8192.
  EXPECT_EQ(PlanFiles(20000, false, 0)->feeds, 8192);
}

TEST(FileBudgetTest, AFeedsFlagBeyondTheBudgetIsRefused) {
  // 1024 files: 128 each for the reserve, gRPC and connections; 640 left.
  absl::StatusOr<FileBudget> fits = PlanFiles(1024, /*broadcast=*/true, 637);
  ASSERT_TRUE(fits.ok()) << fits.status();
  EXPECT_EQ(fits->viewers, 3);
  EXPECT_EQ(fits->total(), 1024);
  absl::StatusOr<FileBudget> beyond = PlanFiles(1024, /*broadcast=*/true, 640);
  ASSERT_EQ(beyond.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(beyond.status().message(), HasSubstr("--http-feeds 640"));
  EXPECT_THAT(beyond.status().message(), HasSubstr("open-file limit (ulimit -n) 1024"));
  EXPECT_TRUE(PlanFiles(1024, /*broadcast=*/false, 640).ok());
  EXPECT_EQ(PlanFiles(63, true, 0).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace arbiter::service::console
