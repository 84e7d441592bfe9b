#pragma once
// Questions users ask of a trace and the SQL that answers them: the examples
// of docs/sql.md, offered by the GUI's Query tab and run by the tests on
// real traces (through the virtual tables and on the exported file).
#include <vector>

namespace ts {

struct ExampleQuery {
    const char* question;
    const char* sql;
};

const std::vector<ExampleQuery>& exampleQueries();

} // namespace ts
