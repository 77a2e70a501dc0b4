// `arbiter tournament export --format` takes every row of the tournament
// export table (export_formats.h) by its name, and the server serves each
// file as its row says (extension, content type); the help and the errors
// list the rows. A format added as a row is reachable with nothing else.
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/tournament/export_formats.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/paths.h"
#include "tests/tournament/e2e_fixture.h"

namespace arbiter {
namespace {

using ::testing::HasSubstr;
using testing::ProcessResult;
using tournament_e2e::E2E;

TEST_F(E2E, EveryTournamentExportFormatIsTheTablesRow) {
  ProcessResult r = Cli({"tournament", "import", "--id", "juvisy",
                         testing::SourcePath("tests/data/opengotha/tournoi_de_juvisy.xml")});
  ASSERT_EQ(r.exit, 0) << r.err;
  for (const tournament::TournamentExportFormat& f : tournament::TournamentExportFormats()) {
    SCOPED_TRACE(std::string(f.name));
    // Named as the table names it, in any case.
    r = Cli(
        {"tournament", "export", "juvisy", "--format", absl::AsciiStrToUpper(f.name), "--json"});
    if (r.exit != 0) {  // what the format cannot hold (h9, aga: an EGF class, ASCII names)
      EXPECT_THAT(r.err, HasSubstr("FAILED_PRECONDITION")) << r.err;
      continue;
    }
    v1::ExportTournamentResponse resp;
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r.out, &resp).ok()) << r.out;
    EXPECT_EQ(resp.filename(), absl::StrCat("juvisy", f.extension));
    EXPECT_EQ(resp.content_type(), f.content_type);
    EXPECT_FALSE(resp.content().empty());
    EXPECT_EQ(resp.sidecar().format(), v1::ExportTournamentRequest::Format_Name(f.format));
  }
  r = Cli({"tournament", "export", "juvisy", "--format", "pdf"});
  EXPECT_EQ(r.exit, 2);
  EXPECT_THAT(r.err, HasSubstr("--format 'pdf': opengotha, h9 (EGD), aga, csv or json"));
  r = Cli({"tournament", "export", "--help"});
  EXPECT_THAT(r.out, HasSubstr("opengotha, h9 (EGD), aga, csv or json"));
}

// What an OpenGotha file cannot say and the EGD's .h9 header needs (CL[],
// TM[], PC[]) is given at the import, so an imported tournament can reach
// the EGD (it could not: no command sets them after creation).
TEST_F(E2E, AnImportTakesTheEgdHeaderFieldsTheFileCannotSay) {
  const std::string juvisy = testing::SourcePath("tests/data/opengotha/tournoi_de_juvisy.xml");
  ProcessResult r = Cli({"tournament", "import", "--id", "plain", juvisy});
  ASSERT_EQ(r.exit, 0) << r.err;
  r = Cli({"tournament", "export", "plain", "--format", "h9"});
  EXPECT_THAT(r.err, HasSubstr("EGF class"));
  r = Cli({"tournament", "import", "--id", "egd", "--egf-class", "B", "--adjusted-time", "90",
           "--country", "FR", "--location", "Juvisy", juvisy});
  ASSERT_EQ(r.exit, 0) << r.err;
  r = Cli({"tournament", "show", "egd", "--json"});
  ASSERT_EQ(r.exit, 0) << r.err;
  v1::Tournament t;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r.out, &t).ok()) << r.out;
  EXPECT_EQ(t.settings().egf_class(), "B");
  EXPECT_EQ(t.settings().adjusted_time_minutes(), 90);
  EXPECT_EQ(t.settings().country(), "FR");
  EXPECT_EQ(t.settings().location(), "Juvisy");
  // The header is complete: what is left is the file's own (a name in
  // Latin letters), not a field no command could set.
  r = Cli({"tournament", "export", "egd", "--format", "h9"});
  EXPECT_THAT(r.err, ::testing::Not(HasSubstr("EGF class")));
  EXPECT_THAT(r.err, ::testing::Not(HasSubstr("adjusted time")));
  EXPECT_THAT(r.err, HasSubstr("romanized name"));
}

}  // namespace
}  // namespace arbiter
