// experiments/StudyTables.h: the sweep, ladder and prune tables that the CLI
// prints and the GUI shows. Their keys are the names of the data files'
// columns (sweep.csv, ladder.csv), so a reader of one finds the other.
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "experiments/LadderReport.h"
#include "experiments/StudyTables.h"
#include "experiments/SweepReport.h"

namespace ts {
namespace {

std::set<std::string> csvHeader(const std::string& csv) {
    std::set<std::string> names;
    std::stringstream header(csv.substr(0, csv.find('\n')));
    for (std::string name; std::getline(header, name, ',');)
        names.insert(name);
    return names;
}

// `derived`: columns shown but not stored (the interval as "± x" of the
// stored low and high ends).
void expectKeysIn(const table::TableSpec& spec, const std::set<std::string>& names,
                  const std::set<std::string>& derived = {}) {
    std::set<std::string> keys;
    for (const table::Column& c : spec.columns) {
        EXPECT_TRUE(keys.insert(c.key).second) << spec.title << ": " << c.key << " twice";
        EXPECT_FALSE(c.title.empty()) << spec.title << ": " << c.key;
        if (!names.empty() && !derived.count(c.key)) {
            EXPECT_TRUE(names.count(c.key)) << spec.title << ": " << c.key;
        }
    }
}

TEST(StudyTables, KeysAreTheDataFilesColumns) {
    expectKeysIn(sweepTableSpec({}), csvHeader(sweepCsv(SweepResult{})),
                 {"images_per_sec_interval"});
    expectKeysIn(ladderTableSpec({}), csvHeader(ladderCsv(LadderResult{})));
    expectKeysIn(pruneLayerTableSpec({}), {});
}

} // namespace
} // namespace ts
